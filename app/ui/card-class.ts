import { cn } from "./cn";

/**
 * The card's frame, for elements that are cards but not a Card section (a list item, a form, a popover).
 * A module of its own, in the chunk every page shares: most pages want this string, not Card and StatCard.
 */
export function cardClass(...extra: Array<string | false | null | undefined>): string {
  return cn("rounded-xl border border-slate-200 bg-white shadow-sm", ...extra);
}
