import type { MouseEvent } from "react";
import { useLocation, useNavigate } from "react-router";
import { type HomeSection, SECTION_SCROLL_DELAY_MS } from "./chrome";

function scrollToSection(id: HomeSection) {
  const target = document.getElementById(id);
  if (!target) return;
  const reduce = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  target.scrollIntoView({ behavior: reduce ? "auto" : "smooth", block: "start" });
  window.history.replaceState(window.history.state, "", `/#${id}`);
  // Move focus with the view, so keyboard and screen-reader users land where they asked.
  if (!target.hasAttribute("tabindex")) target.setAttribute("tabindex", "-1");
  target.focus({ preventScroll: true });
}

/**
 * The section may not be there yet: after a navigation the home page may still be rendering, and its
 * lower sections arrive as lazy chunks. Wait for it (up to 2 s).
 */
function scrollWhenRendered(id: HomeSection, triesLeft = 40) {
  if (document.getElementById(id) || triesLeft === 0) scrollToSection(id);
  else window.setTimeout(() => scrollWhenRendered(id, triesLeft - 1), 50);
}

/**
 * Click handler for links to home sections (`<a href="/#about">`). On / it scrolls; elsewhere it
 * navigates to / and scrolls after 100 ms. Without JavaScript the plain link does the same.
 */
export function useSectionLink() {
  const location = useLocation();
  const navigate = useNavigate();
  return (id: HomeSection, onDone?: () => void) => (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey)
      return;
    event.preventDefault();
    onDone?.();
    if (location.pathname === "/") {
      scrollWhenRendered(id);
      return;
    }
    void Promise.resolve(navigate("/")).then(() => {
      window.setTimeout(() => scrollWhenRendered(id), SECTION_SCROLL_DELAY_MS);
    });
  };
}
