/*
 * One rule keeps what the page scrolls to clear of the sticky site header: the root's
 * scroll-padding-top (app.css) is the header's height, measured, plus a gap. It holds for every
 * scroll into view: a form's alert or error summary taking the focus, a field focused by the
 * browser or reached with Tab, a link to #an-id (also before JavaScript has loaded), a section
 * scrolled to. The header is taller on a phone, where its top bar wraps (a signed-in user's more
 * so), and its height changes with the width: `followSiteHeader` keeps the measure current.
 */

/** The custom property that holds how much of the top of the screen the sticky header covers. */
const HEADER_COVER = "--site-header-cover";

/** How much of the top of the screen the site header covers (0 when it does not stay on screen). */
function headerCover(header: Element | null): number {
  if (!header) return 0;
  const position = getComputedStyle(header).position;
  return position === "sticky" || position === "fixed" ? header.getBoundingClientRect().height : 0;
}

function setHeaderCover(header: Element | null) {
  document.documentElement.style.setProperty(HEADER_COVER, `${headerCover(header)}px`);
}

/**
 * Measures the site header now. The resize observer reports a change only before the next
 * frame is drawn: a scroll started in the same task as the change (the phone menu closed, then
 * the page scrolled to what its item named) would aim with the height before it.
 */
export function measureSiteHeader() {
  setHeaderCover(document.querySelector("header[data-site-header]"));
}

/** Keeps the root's scroll padding at the site header's height as long as the header is shown. */
export function followSiteHeader(header: HTMLElement): () => void {
  setHeaderCover(header);
  const observer = new ResizeObserver(() => setHeaderCover(header));
  observer.observe(header);
  return () => {
    observer.disconnect();
    document.documentElement.style.removeProperty(HEADER_COVER);
  };
}

/**
 * Moves focus to an element and brings it into view at once, below the sticky site header:
 * "start" puts its top just below the header, "center" in the middle of what the header leaves.
 * At once, not smoothly: a scroll animation over a long form is stopped halfway by a touch, by a
 * phone's keyboard closing or by a busy device, and leaves the message under the header or off
 * the screen while it is being read out. Inside a dialog, which lies over the header, the
 * dialog's own scrolling shows it.
 */
export function focusAndReveal(element: HTMLElement | null | undefined, block: ScrollLogicalPosition = "center") {
  if (!element) return;
  element.focus({ preventScroll: true });
  if (element.closest('[role="dialog"]')) {
    element.scrollIntoView({ block: "nearest", behavior: "instant" });
    return;
  }
  measureSiteHeader();
  element.scrollIntoView({ block, behavior: "instant" });
}
