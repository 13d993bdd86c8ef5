/** Paging of the back office's lists: PAGE_SIZE rows a page (as the portal's), counted and cut in SQL. */
import { PAGE_SIZE } from "~/ui/paging";

export interface Paged<T> {
  rows: T[];
  total: number;
  page: number;
}

/** The page number from a query string value: a positive integer, else 1 (capped so OFFSET stays sane). */
export function parsePage(value: string | null | undefined): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) return 1;
  return Math.min(n, 100_000);
}

export function pageOffset(page: number): { limit: number; offset: number } {
  return { limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE };
}

/** The same list filtered by `param` ("all" removes the filter), back on its first page. */
export function filterHref(
  pathname: string,
  search: URLSearchParams | string,
  param: string,
  value: string,
): string {
  const params = new URLSearchParams(search);
  params.delete("page");
  if (value === "all") params.delete(param);
  else params.set(param, value);
  const qs = params.toString();
  return qs ? `${pathname}?${qs}` : pathname;
}

/** The same list's URL on another page, keeping its other filters. */
export function pageHref(pathname: string, search: URLSearchParams | string, page: number): string {
  const params = new URLSearchParams(search);
  if (page <= 1) params.delete("page");
  else params.set("page", String(page));
  const qs = params.toString();
  return qs ? `${pathname}?${qs}` : pathname;
}
