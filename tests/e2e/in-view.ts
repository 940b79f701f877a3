import type { Locator } from "@playwright/test";
import { expect } from "./fixtures";

/**
 * The element is on screen and not under the sticky site header: its top is below the
 * header's bottom edge, inside the viewport, and what the screen shows there is the element.
 * Polls, since the page may still be scrolling it into view.
 */
export async function expectInViewBelowHeader(target: Locator) {
  await expect
    .poll(
      () =>
        target.evaluate((el) => {
          const header = document.querySelector("header");
          const headerBottom = header ? header.getBoundingClientRect().bottom : 0;
          const box = el.getBoundingClientRect();
          if (box.top < headerBottom - 1 || box.top >= window.innerHeight) return `top ${box.top}, header ends at ${headerBottom}`;
          const shown = document.elementFromPoint(box.left + 8, box.top + 8);
          return shown && el.contains(shown) ? "in view" : `covered by ${shown?.tagName}`;
        }),
      { message: "in view below the sticky header" },
    )
    .toBe("in view");
}

/**
 * The element is wholly on screen below the sticky site header: its top below the header's
 * bottom edge, its bottom above the screen's, and what the screen shows at its top is the element.
 * Polls, since the page may still be scrolling it into view.
 */
export async function expectWhollyInViewBelowHeader(target: Locator) {
  await expect
    .poll(
      () =>
        target.evaluate((el) => {
          const header = document.querySelector("header");
          const headerBottom = header ? header.getBoundingClientRect().bottom : 0;
          const box = el.getBoundingClientRect();
          if (box.top < headerBottom - 1) return `top ${box.top} under the header, which ends at ${headerBottom}`;
          if (box.bottom > window.innerHeight + 1) return `bottom ${box.bottom} below the screen's ${window.innerHeight}`;
          const shown = document.elementFromPoint(box.left + 8, box.top + 8);
          return shown && el.contains(shown) ? "in view" : `covered by ${shown?.tagName}`;
        }),
      { message: "wholly in view below the sticky header" },
    )
    .toBe("in view");
}
