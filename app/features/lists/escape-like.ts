/** `%` and `_` typed into a search box are literal characters, not patterns (for ILIKE). */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}
