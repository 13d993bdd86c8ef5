/**
 * The back office's own formatting: the month names of its revenue chart (pure, the same on server and
 * browser). Money is written as everywhere else, by `formatMoney` (features/money/format.ts); dates by
 * app/ui/format.ts.
 */

/** "2026-11" → "Nov 2026". */
export function monthLabel(month: string): string {
  const [y, m] = month.split("-").map(Number);
  const names = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
  return `${names[(m ?? 1) - 1]} ${y}`;
}
