/** The portal's words for its lists and badges, pure and the same on server and browser. */

/** The unread badge: "shows 9+ above 9". */
export function badgeText(unread: number): string | null {
  if (unread <= 0) return null;
  return unread > 9 ? "9+" : String(unread);
}
