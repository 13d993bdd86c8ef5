/**
 * The lists' rules, pure and shared by server and browser, for both audiences (the portal's lists,
 * client-portal.md Orders and Invoices, and the back office's): which filters exist, how the query
 * string is read, paging at 50 rows read from either end, the links to another page or filter. Neutral
 * ground: the orders and invoices features build their lists on it with a scope (scope.ts), and the
 * portal's and the back office's pages show them (docs/decisions/0106-list-kit.md).
 */
import { z } from "zod";
import { PAGE_SIZE, pageCount } from "~/ui/paging";

/**
 * "Status filter: all, pending, paid, completed, cancelled.", and in progress (issue 37, item 14: the
 * filter offers each of the five statuses an order can have; README, deviations).
 */
export const ORDER_FILTERS = ["all", "pending", "paid", "in_progress", "completed", "cancelled"] as const;
export type OrderFilter = (typeof ORDER_FILTERS)[number];

/** The spec's tables show everything; long lists are paged at PAGE_SIZE rows, as the back office's. */
export { PAGE_SIZE };
/** A search longer than this is cut (nobody types a 100-character invoice number). */
export const MAX_SEARCH_LENGTH = 100;

// Built on first use: only the server's loaders read a query, and a schema built at import would keep
// zod in every portal page's JavaScript through the helpers below (ADR 0810).
let querySchemas: { search: z.ZodType<string>; page: z.ZodType<number> } | undefined;
function listQuerySchemas() {
  querySchemas ??= {
    search: z
      .string()
      .trim()
      .transform((v) => v.slice(0, MAX_SEARCH_LENGTH))
      .catch(""),
    page: z.coerce.number().int().min(1).max(1_000_000).catch(1),
  };
  return querySchemas;
}

export interface ListQuery<F extends string> {
  q: string;
  status: F;
  page: number;
}

/**
 * A page number from a query string value: a positive integer, else 1 (capped so an offset stays sane).
 * The back office's lists read their page with it.
 */
export function parsePage(value: string | null | undefined): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) return 1;
  return Math.min(n, 100_000);
}

/** Reads `q`, `status` and `page` from a URL; anything unknown falls back to the defaults (never a 500). */
export function parseListQuery<F extends string>(url: URL, filters: readonly F[]): ListQuery<F> {
  const status = url.searchParams.get("status") ?? "all";
  const { search: searchSchema, page: pageSchema } = listQuerySchemas();
  return {
    q: searchSchema.parse(url.searchParams.get("q") ?? ""),
    status: (filters as readonly string[]).includes(status) ? (status as F) : filters[0]!,
    page: pageSchema.parse(url.searchParams.get("page") ?? "1"),
  };
}

export interface PageInfo {
  page: number;
  pageCount: number;
  total: number;
  /** 1-based index of the first and last row shown (0 and 0 when there are none). */
  from: number;
  to: number;
  /** A search counts its matches up to SEARCH_COUNT_LIMIT: `total` is then "at least" (shown as 1,000+). */
  atLeast?: boolean;
}

/**
 * A search's matches are counted up to this many (a count of all matches would read every one of a
 * client's rows on every request; docs/decisions/0801-portal-pages-flat-with-data.md).
 */
export const SEARCH_COUNT_LIMIT = 1_000;

export function pageInfo(page: number, total: number, pageSize = PAGE_SIZE, atLeast = false): PageInfo {
  const pages = pageCount(total, pageSize);
  const current = Math.min(Math.max(1, page), pages);
  const from = total === 0 ? 0 : (current - 1) * pageSize + 1;
  const info: PageInfo = {
    page: current,
    pageCount: pages,
    total,
    from,
    to: Math.min(total, current * pageSize),
  };
  if (atLeast) info.atLeast = true;
  return info;
}

/**
 * One page of a list with its count, as the back office shows it ("2000 results · page 3 of 40"):
 * `page` is the page asked for (the pager shows at most the last one).
 */
export interface Paged<T> {
  rows: T[];
  total: number;
  page: number;
}

/**
 * The rows of a page read from one end only, for a list that reads its page and its count together
 * (the contact inbox, the quote requests); a list that counts first reads `pageWindow` instead.
 */
export function pageOffset(page: number, pageSize = PAGE_SIZE): { limit: number; offset: number } {
  return { limit: pageSize, offset: (page - 1) * pageSize };
}

/**
 * Which rows to read for a page: the first half of a list is read newest first with an offset, the
 * second half oldest first from the other end (then put back in order), so no page skips more than half
 * of the list and the last page is as cheap as the first. Only with an exact total.
 */
export function pageWindow(paging: PageInfo): { offset: number; limit: number; reverse: boolean } {
  const limit = paging.to - paging.from + 1;
  const fromEnd = paging.total - paging.to;
  if (!paging.atLeast && fromEnd < paging.from - 1) return { offset: fromEnd, limit, reverse: true };
  return { offset: Math.max(0, paging.from - 1), limit, reverse: false };
}

/** The URL of another page of the same list (keeps the search and the filter). */
export function listHref(pathname: string, query: { q: string; status: string; page?: number }): string {
  const params = new URLSearchParams();
  if (query.q) params.set("q", query.q);
  if (query.status && query.status !== "all") params.set("status", query.status);
  if (query.page && query.page > 1) params.set("page", String(query.page));
  const search = params.toString();
  return search ? `${pathname}?${search}` : pathname;
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
