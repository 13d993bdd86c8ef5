/** Paging of every list (portal and back office): 50 rows a page. Pure; the servers cut pages in SQL. */
export const PAGE_SIZE = 50;

/** How many pages `total` rows make: at least one, so an empty list is "page 1 of 1". */
export function pageCount(total: number, pageSize = PAGE_SIZE): number {
  return Math.max(1, Math.ceil(total / pageSize));
}
