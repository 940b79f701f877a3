import { useCallback, useEffect, useRef, type MouseEvent } from "react";
import { useLocation, useNavigate } from "react-router";

export const ABOUT_SECTION_ID = "about";
export const ABOUT_SCROLL_DELAY_MS = 100;
/** How long to wait for the home page to render its about section before giving up. */
const ABOUT_WAIT_LIMIT_MS = 30_000;

function scrollToAbout() {
  document.getElementById(ABOUT_SECTION_ID)?.scrollIntoView({ behavior: "smooth", block: "start" });
}

/** Resolves once the about section is in the document (checked each frame), or false after the limit. */
function whenAboutRendered(signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    const giveUpAt = performance.now() + ABOUT_WAIT_LIMIT_MS;
    const check = () => {
      // Stop if the visitor has gone on elsewhere meanwhile.
      if (signal.aborted || window.location.pathname !== "/") return resolve(false);
      if (document.getElementById(ABOUT_SECTION_ID)) return resolve(true);
      if (performance.now() > giveUpAt) return resolve(false);
      requestAnimationFrame(check);
    };
    check();
  });
}

/**
 * 'About Us' scrolls to the home page's about section. From another page it goes home first and
 * scrolls 100 ms after the home page has arrived and rendered, however long that takes (a slow
 * network or phone may need far more than 100 ms to load the home page's code and data).
 */
export function useAboutUs() {
  const location = useLocation();
  const navigate = useNavigate();
  const pending = useRef<AbortController | null>(null);
  useEffect(() => () => pending.current?.abort(), []);

  return useCallback(
    (event?: MouseEvent) => {
      event?.preventDefault();
      pending.current?.abort();
      if (location.pathname === "/") {
        scrollToAbout();
        return;
      }
      const controller = new AbortController();
      pending.current = controller;
      void (async () => {
        await navigate("/");
        if (!(await whenAboutRendered(controller.signal))) return;
        const timer = setTimeout(scrollToAbout, ABOUT_SCROLL_DELAY_MS);
        controller.signal.addEventListener("abort", () => clearTimeout(timer));
      })();
    },
    [location.pathname, navigate],
  );
}
