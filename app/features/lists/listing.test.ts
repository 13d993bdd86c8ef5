import { describe, expect, it } from "vitest";
import { CLIENT_INVOICE_FILTERS } from "~/features/invoices/invoice-filters";
import { listHref, ORDER_FILTERS, pageInfo, pageWindow, parseListQuery } from "./listing";

describe("parseListQuery", () => {
  it("reads q, status and page", () => {
    const q = parseListQuery(new URL("http://x/?q=%20ssl%20&status=paid&page=3"), ORDER_FILTERS);
    expect(q).toEqual({ q: "ssl", status: "paid", page: 3 });
  });
  it("falls back to the defaults on anything unknown", () => {
    expect(parseListQuery(new URL("http://x/?status=void&page=-2"), CLIENT_INVOICE_FILTERS)).toEqual({
      q: "",
      status: "all",
      page: 1,
    });
    expect(parseListQuery(new URL("http://x/?page=abc&q="), ORDER_FILTERS).page).toBe(1);
    expect(parseListQuery(new URL(`http://x/?q=${"a".repeat(500)}`), ORDER_FILTERS).q).toHaveLength(100);
  });
});

describe("pageInfo", () => {
  it("pages at 50 rows", () => {
    expect(pageInfo(1, 0)).toEqual({ page: 1, pageCount: 1, total: 0, from: 0, to: 0 });
    expect(pageInfo(1, 120)).toEqual({ page: 1, pageCount: 3, total: 120, from: 1, to: 50 });
    expect(pageInfo(3, 120)).toEqual({ page: 3, pageCount: 3, total: 120, from: 101, to: 120 });
    expect(pageInfo(9, 120).page).toBe(3);
    expect(pageInfo(2, 1000, 50, true)).toEqual({
      page: 2,
      pageCount: 20,
      total: 1000,
      from: 51,
      to: 100,
      atLeast: true,
    });
  });
});

describe("pageWindow", () => {
  it("reads the first half newest first, the second half from the other end", () => {
    expect(pageWindow(pageInfo(1, 320))).toEqual({ offset: 0, limit: 50, reverse: false });
    expect(pageWindow(pageInfo(3, 320))).toEqual({ offset: 100, limit: 50, reverse: false });
    // Page 4 of 320 shows rows 151–200: 120 rows after it, 150 before it.
    expect(pageWindow(pageInfo(4, 320))).toEqual({ offset: 120, limit: 50, reverse: true });
    // The last page (rows 301–320) is the first 20 from the end.
    expect(pageWindow(pageInfo(7, 320))).toEqual({ offset: 0, limit: 20, reverse: true });
    expect(pageWindow(pageInfo(200, 10_000))).toEqual({ offset: 0, limit: 50, reverse: true });
    expect(pageWindow(pageInfo(1, 10))).toEqual({ offset: 0, limit: 10, reverse: false });
  });
  it("never reads from the end of a count that is only a lower bound", () => {
    expect(pageWindow(pageInfo(20, 1000, 50, true))).toEqual({ offset: 950, limit: 50, reverse: false });
  });
});

describe("listHref", () => {
  it("keeps search and filter, drops defaults", () => {
    expect(listHref("/client/orders", { q: "", status: "all", page: 1 })).toBe("/client/orders");
    expect(listHref("/client/orders", { q: "ssl x", status: "paid", page: 2 })).toBe(
      "/client/orders?q=ssl+x&status=paid&page=2",
    );
  });
});
