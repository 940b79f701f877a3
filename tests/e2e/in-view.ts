import type { Locator, Page } from "@playwright/test";
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

interface Landing {
  top: number;
  bottom: number;
  headerBottom: number;
  screenBottom: number;
}

/**
 * Does `action` and expects the element it gives the focus to (found by `selector`) to be wholly
 * on screen below the sticky site header (inside a dialog: inside the dialog) in the first frame
 * the browser draws after the focus moved, not only once a scroll animation has ended: a touch,
 * a phone's keyboard closing or a busy device stops such an animation halfway. Then again once
 * the page has settled.
 */
export async function expectFocusLandsInView(page: Page, selector: string, action: () => Promise<unknown>) {
  await page.evaluate((sel) => {
    const w = window as unknown as { landing?: Landing | null };
    w.landing = null;
    const onFocus = (event: FocusEvent) => {
      const el = event.target as Element;
      if (!el.matches(sel)) return;
      document.removeEventListener("focusin", onFocus);
      requestAnimationFrame(() => {
        const dialog = el.closest('[role="dialog"]');
        const header = document.querySelector("header");
        const box = el.getBoundingClientRect();
        w.landing = {
          top: box.top,
          bottom: box.bottom,
          headerBottom: dialog ? dialog.getBoundingClientRect().top : header ? header.getBoundingClientRect().bottom : 0,
          screenBottom: dialog ? dialog.getBoundingClientRect().bottom : window.innerHeight,
        };
      });
    };
    document.addEventListener("focusin", onFocus);
  }, selector);
  await action();
  const read = () => page.evaluate(() => (window as unknown as { landing?: Landing | null }).landing ?? null);
  await expect.poll(read, { message: `${selector} takes the focus` }).not.toBeNull();
  const first = (await read())!;
  expect(first.top, `${selector} in the first frame: top ${first.top}, header ends at ${first.headerBottom}`).toBeGreaterThanOrEqual(
    first.headerBottom - 1,
  );
  expect(first.bottom, `${selector} in the first frame: bottom ${first.bottom}, screen ends at ${first.screenBottom}`).toBeLessThanOrEqual(
    first.screenBottom + 1,
  );
  const target = page.locator(selector);
  await expect(target).toBeFocused();
  if (await target.evaluate((el) => el.closest('[role="dialog"]') === null)) await expectWhollyInViewBelowHeader(target);
}
