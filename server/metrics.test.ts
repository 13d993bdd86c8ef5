import { describe, expect, it } from "vitest";
import { routePattern } from "./metrics";

describe("routePattern", () => {
  it("keeps route patterns few: ids become :id, files one pattern, not-found one value", () => {
    expect(routePattern("/", 200)).toBe("/");
    expect(routePattern("/client/orders/0b6e1f3a-4c2d-4e5f-8a9b-0c1d2e3f4a5b", 200)).toBe(
      "/client/orders/:id",
    );
    expect(routePattern("/admin/invoices/0B6E1F3A-4C2D-4E5F-8A9B-0C1D2E3F4A5B", 200)).toBe(
      "/admin/invoices/:id",
    );
    expect(routePattern("/client/credit-notes/5/pdf", 200)).toBe("/client/credit-notes/:id/pdf");
    expect(routePattern("/admin/clients/7EDB2CK7nG8EbIFpehliwZQCdRoTOTRo", 200)).toBe("/admin/clients/:id");
    expect(routePattern("/services/email-migration", 200)).toBe("/services/email-migration");
    expect(routePattern("/assets/entry.client-dj1ar-zN.js", 200)).toBe("/assets/*");
    expect(routePattern("/no/such/page/at/all", 404)).toBe("(not found)");
    expect(routePattern("/a/b/c/d/e/f", 200)).toBe("/a/b/c/d");
    expect(routePattern(`/${"x".repeat(100)}`, 200)).toBe("(long path)");
  });
});
