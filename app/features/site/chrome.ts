/** Rules of the site chrome (public-site.md §2 "Header", §9 "Timing"). Pure, shared by tests. */

/** The header becomes more opaque once the page is scrolled more than this. */
export const HEADER_OPAQUE_AFTER_PX = 10;
/** Leaving another page for a home section: navigate to / first, then scroll after this delay. */
export const SECTION_SCROLL_DELAY_MS = 100;

/** The home page's anchored sections. */
export type HomeSection = "home" | "services" | "about" | "reviews" | "blog" | "contact" | "quote";

/**
 * Header, footer and the chat assistant are hidden on every /client/ route, on the portal's invoice page
 * under its spec address `/invoice/{id}` (in the portal's frame: issue 37, item 13), in the back office,
 * and on the sandbox payment provider's hosted checkout (it stands for another company's page).
 */
export function isChromeHidden(pathname: string): boolean {
  return (
    pathname === "/client" ||
    pathname.startsWith("/client/") ||
    pathname.startsWith("/invoice/") ||
    pathname === "/admin" ||
    pathname.startsWith("/admin/") ||
    pathname.startsWith("/payments/")
  );
}
