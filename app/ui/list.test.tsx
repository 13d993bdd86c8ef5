import type { ReactElement } from "react";
import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { ListView, Pager } from "./list";
import { FilterChips, SearchForm } from "./list-controls";
import { columnLabels, cssString, Td } from "./table";
import { Toasts } from "./toast";

let shown: ReactElement | null = null;
function Shown() {
  return shown;
}
const Stub = createRoutesStub([{ path: "/list", Component: Shown }]);

/** Server-rendered HTML of a piece that needs a router (links, forms). */
function html(ui: ReactElement): string {
  shown = ui;
  return renderToString(<Stub initialEntries={["/list"]} />).replaceAll("<!-- -->", "");
}

describe("list kit", () => {
  it("shows a table with its caption and head, or the empty state instead", () => {
    const table = html(
      <ListView label="Orders" caption="Your orders" head={["Service", "Amount"]} pager={<p>pager</p>}>
        <tr>
          <Td>Backup</Td>
          <Td>$4.00</Td>
        </tr>
      </ListView>,
    );
    expect(table).toContain('<section aria-label="Orders"');
    expect(table).toContain('<caption class="sr-only">Your orders</caption>');
    expect(table).toMatch(/<th scope="col"[^>]*>Service<\/th>/);
    // The scrolling box is relative, so visually hidden texts in cells stay inside it.
    expect(table).toContain('<div class="relative overflow-x-auto"><table');
    // On a phone each cell writes its column's header (app.css): the table carries them.
    expect(table).toContain('style="--col-1:&quot;Service&quot;;--col-2:&quot;Amount&quot;"');
    expect(table).toContain("pager");
    const empty = html(
      <ListView label="Orders" caption="Your orders" head={["Service"]} empty={{ title: "No Orders Found" }}>
        {null}
      </ListView>,
    );
    expect(empty).toContain("No Orders Found");
    expect(empty).not.toContain("<table");
  });

  it("writes column headers as CSS strings", () => {
    expect(cssString('Say "hi" \\ bye')).toBe('"Say \\"hi\\" \\\\ bye"');
    expect(columnLabels(["A", "B"])).toEqual({ "--col-1": '"A"', "--col-2": '"B"' });
  });

  it("pages with Previous and Next links, only where there is such a page", () => {
    const hrefFor = (page: number) => `/list?page=${page}`;
    const middle = html(
      <Pager label="orders pages" summary="Showing 51–100" page={2} pageCount={3} hrefFor={hrefFor} />,
    );
    expect(middle).toContain('<nav aria-label="orders pages"');
    expect(middle).toMatch(/rel="prev" href="\/list\?page=1"[^>]*>Previous page</);
    expect(middle).toMatch(/rel="next" href="\/list\?page=3"[^>]*>Next page</);
    const only = html(
      <Pager label="orders pages" summary="Showing 1–3" page={1} pageCount={1} hrefFor={hrefFor} />,
    );
    expect(only).toContain("Showing 1–3");
    expect(only).not.toContain("<a");
  });

  it("marks the current filter chip and writes its count", () => {
    const chips = html(
      <FilterChips
        label="Filter invoices by status"
        current="paid"
        options={[
          { value: "all", label: "All", count: 1200 },
          { value: "paid", label: "Paid", count: 2 },
        ]}
        hrefFor={(v) => `/list?status=${v}`}
      />,
    );
    expect(chips).toContain('data-count="all">(1,200)</span>');
    expect(chips).toMatch(/<a aria-current="page"[^>]*href="\/list\?status=paid"/);
    expect(chips.match(/aria-current/g)).toHaveLength(1);
  });

  it("searches by GET and keeps the other filters as hidden fields", () => {
    const form = html(<SearchForm id="q" label="Search" q="ssl" keep={{ status: "paid", entity: null }} />);
    expect(form).toMatch(/<form role="search"[^>]*method="get"/);
    expect(form).toContain('<input type="hidden" name="status" value="paid"/>');
    expect(form).not.toContain('name="entity"');
    expect(form).toMatch(
      /<label for="q"[^>]*>Search<\/label><input id="q" type="search"[^>]*name="q" value="ssl"/,
    );
  });

  it("shows toasts in a polite live region, each with its type and a dismiss button", () => {
    const toasts = renderToString(
      <Toasts
        toasts={[{ key: 1, title: "Payment Received", message: "Thank you", type: "payment" }]}
        onDismiss={() => {}}
      />,
    );
    expect(toasts).toMatch(/^<div aria-live="polite" data-toasts="true"/);
    expect(toasts).toContain('data-toast-type="payment"');
    expect(toasts).toContain('aria-label="Dismiss notification"');
  });
});
