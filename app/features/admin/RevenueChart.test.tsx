import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { RevenueChart } from "./RevenueChart";

const text = (html: string) => html.replace(/<!-- -->/g, "");

describe("revenue chart", () => {
  it("shows net figures: a month with more refunded than paid has no bar, only its negative figure", () => {
    const html = text(
      renderToString(
        <RevenueChart
          data={[
            { month: "2026-09", usd: 0.1, invoices: 1 },
            { month: "2026-10", usd: 80.2, invoices: 2 },
            { month: "2026-11", usd: -30, invoices: 0 },
          ]}
        />,
      ),
    );
    // No bar has a negative height (SVG refuses it): November's is empty.
    const heights = [...html.matchAll(/<rect [^>]*height="([^"]+)"/g)].map((m) => Number(m[1]));
    expect(heights).toHaveLength(3);
    expect(heights[2]).toBe(0);
    expect(heights[1]).toBeGreaterThan(heights[0]!);
    expect(heights.every((h) => h >= 0)).toBe(true);
    // The label over it and the table say what came in, net.
    expect(html).toMatch(/<text [^>]*>-30<\/text>/);
    expect(html).toMatch(/Nov 2026<\/th><td[^>]*>-\$30\.00<\/td><td[^>]*>0<\/td>/);
    expect(html).toMatch(/Oct 2026<\/th><td[^>]*>\$80\.20<\/td><td[^>]*>2<\/td>/);
    expect(html).toContain("Net revenue (USD)");
    // The twelve months' total is net too.
    expect(html).toContain("Paid invoices less refunds, USD, last 12 months: $50.30 in total.");
  });
});
