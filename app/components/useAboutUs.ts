import { useCallback, type MouseEvent } from "react";
import { useLocation, useNavigate } from "react-router";

export const ABOUT_SECTION_ID = "about";
export const ABOUT_SCROLL_DELAY_MS = 100;

function scrollToAbout() {
  document.getElementById(ABOUT_SECTION_ID)?.scrollIntoView({ behavior: "smooth", block: "start" });
}

/** 'About Us' scrolls to the home page's about section; from another page it goes home first, then scrolls after 100 ms. */
export function useAboutUs() {
  const location = useLocation();
  const navigate = useNavigate();
  return useCallback(
    (event?: MouseEvent) => {
      event?.preventDefault();
      if (location.pathname === "/") {
        scrollToAbout();
        return;
      }
      navigate("/");
      setTimeout(scrollToAbout, ABOUT_SCROLL_DELAY_MS);
    },
    [location.pathname, navigate],
  );
}
