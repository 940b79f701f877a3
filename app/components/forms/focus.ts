/**
 * Moves focus to an element and scrolls it to the middle of the screen, where the sticky
 * site header cannot cover it (plain focus() scrolls it to the very top). With block "start",
 * give the element a scroll margin (scroll-mt-*) taller than the header.
 */
export function focusAndReveal(element: HTMLElement | null | undefined, block: ScrollLogicalPosition = "center") {
  if (!element) return;
  element.focus({ preventScroll: true });
  element.scrollIntoView({ block });
}
