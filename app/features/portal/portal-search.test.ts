import { describe, expect, it } from "vitest";
import { MAX_SUGGESTIONS, suggestionsOf } from "./portal-search";

const none = { orders: [], invoices: [], quotes: [], creditNotes: [] };

describe("the header search's suggestions", () => {
  it("offers each service and number that contains the text once, saying what it is", () => {
    const found = {
      orders: [{ serviceName: "SSL & HTTPS Setup" }, { serviceName: "SSL & HTTPS Setup" }],
      invoices: [{ invoiceNumber: "INV-2026-0001", serviceName: "SSL & HTTPS Setup" }],
      quotes: [{ number: "Q-2026-0001" }],
      creditNotes: [{ creditNoteNumber: "CN-2026-0001" }],
    };
    expect(suggestionsOf("ssl", found)).toEqual([{ value: "SSL & HTTPS Setup", label: "Service" }]);
    expect(suggestionsOf("2026-0001", found)).toEqual([
      { value: "INV-2026-0001", label: "Invoice" },
      { value: "Q-2026-0001", label: "Quote" },
      { value: "CN-2026-0001", label: "Credit note" },
    ]);
  });

  it("offers at most MAX_SUGGESTIONS", () => {
    const invoices = Array.from({ length: 20 }, (_, i) => ({
      invoiceNumber: `INV-2026-${String(i).padStart(4, "0")}`,
      serviceName: null,
    }));
    expect(suggestionsOf("INV", { ...none, invoices })).toHaveLength(MAX_SUGGESTIONS);
  });
});
