import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { RevenueChart, type RevenuePoint } from "./RevenueChart";

const text = (html: string) => html.replace(/<!-- -->/g, "");

/** September a little one-off, October both kinds, November more refunded than paid (one-off). */
const MONTHS: RevenuePoint[] = [
  { month: "2026-09", usd: 0.1, recurringUsd: 0, oneOffUsd: 0.1, invoices: 1 },
  { month: "2026-10", usd: 80.2, recurringUsd: 49, oneOffUsd: 31.2, invoices: 2 },
  { month: "2026-11", usd: -30, recurringUsd: 0, oneOffUsd: -30, invoices: 0 },
];

/** Each bar part's geometry, by part, in the months' order. */
function bars(html: string, part: "recurring" | "one-off") {
  return [...html.matchAll(/<rect ([^>]*)>/g)]
    .map((m) => m[1]!)
    .filter((attrs) => attrs.includes(`data-part="${part}"`))
    .map((attrs) => ({
      y: Number(/ y="([^"]+)"/.exec(attrs)![1]),
      height: Number(/ height="([^"]+)"/.exec(attrs)![1]),
    }));
}

describe("revenue chart", () => {
  it("shows net figures: a month with more refunded than paid has no bar, only its negative figure", () => {
    const html = text(renderToString(<RevenueChart data={MONTHS} />));
    // No bar part has a negative height (SVG refuses it): November's are empty.
    const heights = [...bars(html, "recurring"), ...bars(html, "one-off")].map((b) => b.height);
    expect(heights).toHaveLength(6);
    expect(heights.every((h) => h >= 0)).toBe(true);
    expect(bars(html, "recurring")[2]!.height).toBe(0);
    expect(bars(html, "one-off")[2]!.height).toBe(0);
    // The label over it and the table say what came in, net.
    expect(html).toMatch(/<text [^>]*>-30<\/text>/);
    expect(html).toMatch(/Nov 2026<\/th><td[^>]*>-\$30\.00<\/td><td[^>]*>0<\/td>/);
    expect(html).toMatch(/Oct 2026<\/th><td[^>]*>\$80\.20<\/td><td[^>]*>2<\/td>/);
    expect(html).toContain("Net revenue (USD)");
    // The twelve months' total is net too.
    expect(html).toContain("Paid invoices less refunds, USD, last 12 months: $50.30 in total.");
  });

  it("stacks recurring revenue under one-off revenue, with a legend and the split in words and in the table", () => {
    const html = text(renderToString(<RevenueChart data={MONTHS} />));
    const recurring = bars(html, "recurring");
    const oneOff = bars(html, "one-off");
    // October: both parts, in proportion to $49 and $31.20, the one-off part right on top of the other.
    expect(recurring[1]!.height / oneOff[1]!.height).toBeCloseTo(49 / 31.2, 6);
    expect(oneOff[1]!.y + oneOff[1]!.height).toBeCloseTo(recurring[1]!.y, 6);
    // September: one-off only.
    expect(recurring[0]!.height).toBe(0);
    expect(oneOff[0]!.height).toBeGreaterThan(0);
    // The tallest stack fills the chart's height; the others are shorter.
    expect(recurring[1]!.height + oneOff[1]!.height).toBeGreaterThan(oneOff[0]!.height);
    // The legend names both parts, in words beside their swatches.
    const legend = /<ul [^>]*data-testid="revenue-legend"[^>]*>(.*?)<\/ul>/.exec(html)![1]!;
    expect(legend).toContain("Recurring (care plans)");
    expect(legend).toContain("One-off sales");
    // The caption and the table give the split: recurring $49, one-off $0.10 + $31.20 - $30 = $1.30.
    expect(html).toContain("Recurring (care plans): $49.00; one-off sales: $1.30.");
    expect(html).toMatch(
      /Oct 2026<\/th><td[^>]*>\$80\.20<\/td><td[^>]*>2<\/td><td[^>]*>\$49\.00<\/td><td[^>]*>\$31\.20<\/td>/,
    );
    expect(html).toMatch(
      /Nov 2026<\/th>(<td[^>]*>[^<]*<\/td>){2}<td[^>]*>\$0\.00<\/td><td[^>]*>-\$30\.00<\/td>/,
    );
    expect(html).toContain("Recurring (USD)");
    expect(html).toContain("One-off (USD)");
  });
});
