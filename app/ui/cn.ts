import { twMerge } from "tailwind-merge";

/**
 * Joins class names, later ones winning over earlier ones of the same Tailwind group, so a caller's
 * `text-base` replaces a primitive's `text-sm` instead of both landing in the class list.
 */
export function cn(...classes: Array<string | false | null | undefined>): string {
  return twMerge(...classes);
}
