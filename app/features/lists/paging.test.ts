import { describe, expect, it } from "vitest";
import { pageCount } from "~/ui/paging";
import { escapeLike } from "./escape-like";
import { filterHref, pageHref, pageOffset, parsePage } from "./listing";

describe("the back office's paging and links", () => {
  it("reads a page number or falls back to 1", () => {
    expect(parsePage("3")).toBe(3);
    expect(parsePage(null)).toBe(1);
    expect(parsePage("0")).toBe(1);
    expect(parsePage("-2")).toBe(1);
    expect(parsePage("1.5")).toBe(1);
    expect(parsePage("abc")).toBe(1);
    expect(parsePage("99999999")).toBe(100_000);
  });
  it("cuts 50 rows a page", () => {
    expect(pageOffset(1)).toEqual({ limit: 50, offset: 0 });
    expect(pageOffset(3)).toEqual({ limit: 50, offset: 100 });
    expect(pageCount(0)).toBe(1);
    expect(pageCount(50)).toBe(1);
    expect(pageCount(51)).toBe(2);
  });
  it("keeps the other filters in page links", () => {
    expect(pageHref("/admin/orders", "status=paid&page=2", 3)).toBe("/admin/orders?status=paid&page=3");
    expect(pageHref("/admin/orders", "status=paid&page=2", 1)).toBe("/admin/orders?status=paid");
    expect(pageHref("/admin/orders", "", 1)).toBe("/admin/orders");
  });
  it("keeps the search in filter links and goes back to the first page", () => {
    expect(filterHref("/admin/orders", "q=ada&page=3", "status", "paid")).toBe(
      "/admin/orders?q=ada&status=paid",
    );
    expect(filterHref("/admin/orders", "status=paid&q=ada", "status", "all")).toBe("/admin/orders?q=ada");
    expect(filterHref("/admin/audit", "", "entity", "order")).toBe("/admin/audit?entity=order");
  });
  it("escapes LIKE wildcards", () => {
    expect(escapeLike("50%_off\\")).toBe("50\\%\\_off\\\\");
  });
});
