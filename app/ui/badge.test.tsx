import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { StatusBadge, statusLabel, statusTone } from "./badge";

describe("status badge", () => {
  it("labels statuses", () => {
    expect(statusLabel("in_progress")).toBe("In Progress");
  });

  it("names a status in title case, the same for the client and the owner, and marks which it is", () => {
    expect(renderToString(<StatusBadge status="in_progress" />)).toMatch(
      /^<span data-status="in_progress" class="[^"]*bg-blue-100[^"]*">In Progress<\/span>$/,
    );
    expect(renderToString(<StatusBadge status="overdue" />)).toContain("bg-red-100");
    expect(renderToString(<StatusBadge status="something-new" />)).toContain("bg-slate-100");
  });

  it("names a status in words of its own when given, in the status's tone", () => {
    expect(renderToString(<StatusBadge status="partially_refunded" label="Partially refunded" />)).toMatch(
      /^<span data-status="partially_refunded" class="[^"]*bg-amber-100[^"]*">Partially refunded<\/span>$/,
    );
    expect(statusTone("refunded")).toBe("neutral");
    expect(statusTone("something-new")).toBe("muted");
  });
});
