import { describe, expect, it } from "vitest";
import { type QuoteViewInput, quoteView } from "./quote-view";

const business = {
  name: "Portico IT Services",
  legalName: "Portico IT Services LLC",
  email: "support@portico.example",
  phone: "+1 555",
  whatsapp: "1555",
  address: "100 Main Street",
  hours: { weekdays: "", saturday: "", sunday: "", emergency: "" },
  social: {},
} as never;

/** 3 × $333.37 + 20 × $4.00 = $1,080.11, less $0.11; tax 8.25% of $1,080.00 = $89.10; total $1,169.10. */
const quote: QuoteViewInput = {
  id: "q1",
  quoteNumber: "Q-2026-0007",
  status: "sent",
  name: "Grace Hopper",
  email: "grace@example.com",
  company: "Hopper Logistics",
  lines: [
    { kind: "free", description: "Rollout over 30 domains", quantity: 3, unitPriceUsd: 333.37 },
    {
      kind: "catalogue",
      serviceId: "s1",
      serviceName: "Email Migration & Setup",
      package: "basic",
      packageName: "Per Mailbox",
      quantity: 20,
      unitPriceUsd: 4,
    },
  ],
  subtotalUsd: 1080.11,
  discountUsd: 0.11,
  taxRatePercent: 8.25,
  taxUsd: 89.1,
  totalUsd: 1169.1,
  depositPercent: 30,
  validUntil: "2026-12-31",
  terms: "Half now.\nHalf later.",
  sentAt: new Date("2026-12-01T10:00:00Z"),
  createdAt: new Date("2026-11-30T10:00:00Z"),
  acceptedAt: null,
  acceptedName: null,
  acceptedForCompany: null,
  declinedAt: null,
  declineReason: null,
  expiredAt: null,
  orderId: null,
};

describe("quoteView", () => {
  it("prints the lines, the amounts, the deposit and the balance to the cent", () => {
    const v = quoteView(quote, business, new Date("2026-12-10T00:00:00Z"));
    expect(v).toMatchObject({
      number: "Q-2026-0007",
      statusLabel: "Awaiting your decision",
      issued: "December 1, 2026",
      validUntil: "December 31, 2026",
      preparedFor: { name: "Grace Hopper", company: "Hopper Logistics", email: "grace@example.com" },
      subtotal: "$1,080.11",
      discount: "−$0.11",
      taxLabel: "Tax (8.25%)",
      tax: "$89.10",
      total: "$1,169.10",
      // 30% of $1,169.10 = $350.73; the balance is what is left.
      deposit: { percent: 30, amount: "$350.73", balance: "$818.37" },
      terms: "Half now.\nHalf later.",
      open: true,
      closedNote: null,
    });
    expect(v.lines).toEqual([
      {
        description: "Rollout over 30 domains",
        detail: null,
        quantity: 3,
        unitPrice: "$333.37",
        amount: "$1,000.11",
      },
      {
        description: "Email Migration & Setup",
        detail: "Per Mailbox",
        quantity: 20,
        unitPrice: "$4.00",
        amount: "$80.00",
      },
    ]);
  });

  it("is open through its valid-until day (UTC) and expired after it, before the job records it", () => {
    expect(quoteView(quote, business, new Date("2026-12-31T23:59:59Z")).open).toBe(true);
    const late = quoteView(quote, business, new Date("2027-01-01T00:00:00Z"));
    expect(late).toMatchObject({
      open: false,
      statusLabel: "Expired",
      closedNote: "This quote expired: it was valid until December 31, 2026.",
    });
  });

  it("says where a closed quote stands", () => {
    const now = new Date("2026-12-10T00:00:00Z");
    expect(quoteView({ ...quote, status: "superseded" }, business, now)).toMatchObject({
      open: false,
      statusLabel: "Superseded",
      closedNote: "A revised quote replaces this one.",
    });
    expect(
      quoteView(
        {
          ...quote,
          status: "accepted",
          acceptedAt: new Date("2026-12-02T09:30:00Z"),
          acceptedName: "Grace Brewster Hopper",
        },
        business,
        now,
      ),
    ).toMatchObject({
      open: false,
      accepted: { name: "Grace Brewster Hopper", at: "Dec 2, 2026, 09:30 UTC" },
    });
    expect(
      quoteView(
        {
          ...quote,
          status: "declined",
          declinedAt: new Date("2026-12-03T08:00:00Z"),
          declineReason: "Too soon",
        },
        business,
        now,
      ),
    ).toMatchObject({ open: false, declined: { at: "Dec 3, 2026, 08:00 UTC", reason: "Too soon" } });
  });

  it("writes the acceptance's time in the client's timezone, and the document's dates in the seller's", () => {
    const accepted = quoteView(
      {
        ...quote,
        status: "accepted",
        sentAt: new Date("2026-12-02T03:30:00Z"),
        acceptedAt: new Date("2026-12-02T03:30:00Z"),
        acceptedName: "Grace Brewster Hopper",
      },
      business,
      new Date("2026-12-10T00:00:00Z"),
      undefined,
      "America/Los_Angeles",
    );
    expect(accepted.accepted?.at).toBe("Dec 1, 2026, 19:30 PST");
    expect(accepted.issued).toBe("December 2, 2026");
  });

  it("has no deposit rows without a deposit, and no discount row without a discount", () => {
    const v = quoteView({ ...quote, depositPercent: null, discountUsd: 0 }, business);
    expect(v.deposit).toBeNull();
    expect(v.discount).toBeNull();
  });
});
