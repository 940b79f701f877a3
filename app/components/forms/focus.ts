/** Room left between the sticky site header and an element revealed below it. */
const BELOW_HEADER_GAP = 16;

/**
 * How much of the top of the screen the sticky site header covers (0 when the page has no
 * header that stays on screen). Measured each time: it is taller on a phone, where its links wrap.
 */
function headerCover(): number {
  const header = document.querySelector("header");
  if (!header) return 0;
  const position = getComputedStyle(header).position;
  return position === "sticky" || position === "fixed" ? header.getBoundingClientRect().height : 0;
}

/**
 * Moves focus to an element and scrolls it into view where the sticky site header cannot cover
 * it (plain focus() scrolls it to the very top, under the header). "start" puts its top just below
 * the header, "center" in the middle of the screen. Inside a dialog, which lies over the header,
 * the dialog's own scrolling shows it.
 */
export function focusAndReveal(element: HTMLElement | null | undefined, block: ScrollLogicalPosition = "center") {
  if (!element) return;
  element.focus({ preventScroll: true });
  if (element.closest('[role="dialog"]')) {
    element.scrollIntoView({ block: "nearest" });
    return;
  }
  element.style.scrollMarginTop = `${headerCover() + BELOW_HEADER_GAP}px`;
  element.scrollIntoView({ block });
}
