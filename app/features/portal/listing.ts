/** The portal's words for its lists and badges, pure and the same on server and browser. */

/** "Active = any not completed or cancelled." */
export function isActiveOrder(status: string): boolean {
  return status !== "completed" && status !== "cancelled";
}

/** The unread badge: "shows 9+ above 9". */
export function badgeText(unread: number): string | null {
  if (unread <= 0) return null;
  return unread > 9 ? "9+" : String(unread);
}

/** A date as the portal shows it (e.g. "Mar 5, 2026"), the same on server and browser. */
export function formatDate(value: Date | string): string {
  return new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" }).format(new Date(value));
}

/** Human words for a status key ("in_progress" → "In Progress"). */
export function statusLabel(status: string): string {
  return status
    .split(/[_-]/)
    .map((w) => (w ? w[0]!.toUpperCase() + w.slice(1) : w))
    .join(" ");
}
