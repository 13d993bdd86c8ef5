import { describe, expect, it } from "vitest";
import {
  invoiceView,
  issuedPartyLines,
  netPaidLine,
  REFUND_ARRIVAL,
  refundedLine,
  totalLine,
} from "./invoice-view";

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

const base = {
  invoice: {
    id: "i1",
    invoiceNumber: "INV-2026-0001",
    status: "sent",
    currency: "USD",
    subtotal: 80,
    taxRatePercent: 0,
    taxAmount: 0,
    totalAmount: 80,
    amountUsd: 80,
    exchangeRate: 1,
    dueDate: "2026-01-08T00:00:00Z",
    paidAt: null,
    createdAt: "2026-01-01T00:00:00Z",
  },
  order: {
    serviceName: "Email Migration & Setup",
    packageName: "Per Mailbox",
    quantity: 20,
    unitPriceUsd: 4,
    serviceCategory: "Email",
  },
  client: { name: "Ada", email: "ada@example.com", phone: null, company: null },
};

describe("invoiceView", () => {
  it("shows a USD invoice with its own symbol and the dates", () => {
    // Shown before its due date (after it, the sent invoice reads overdue).
    const v = invoiceView(base, business, undefined, new Date("2026-01-02T00:00:00Z"));
    expect(v).toMatchObject({
      number: "INV-2026-0001",
      total: "$80.00",
      tone: "unpaid",
      statusLabel: "Sent",
      usdNote: null,
    });
    expect(v.lines[0]).toMatchObject({ quantity: 20, unitPrice: "$4.00", amount: "$80.00" });
    expect(v.due).toBe("January 8, 2026");
  });
  it('shows a quote\'s deposit or balance as one line for that part of the order (issue "quotes")', () => {
    const quoteOrder = {
      serviceName: "Custom work (Q-2026-0001)",
      packageName: "Quote Q-2026-0001",
      quantity: 1,
      unitPriceUsd: 1000.11,
      serviceCategory: "Custom",
    };
    const deposit = invoiceView(
      {
        ...base,
        invoice: {
          ...base.invoice,
          kind: "deposit",
          subtotal: 300.04,
          taxAmount: 24.75,
          totalAmount: 324.79,
        },
        order: quoteOrder,
      },
      business,
    );
    expect(deposit.lines).toEqual([
      {
        description: "Custom work (Q-2026-0001)",
        detail: "Deposit of Quote Q-2026-0001",
        quantity: 1,
        unitPrice: "$300.04",
        amount: "$300.04",
      },
    ]);
    const balance = invoiceView(
      { ...base, invoice: { ...base.invoice, kind: "balance", subtotal: 700.07 }, order: quoteOrder },
      business,
    );
    expect(balance.lines).toMatchObject([{ detail: "Balance of Quote Q-2026-0001", unitPrice: "$700.07" }]);
    // A whole invoice keeps the order's own line.
    expect(
      invoiceView({ ...base, invoice: { ...base.invoice, kind: "full" } }, business).lines[0],
    ).toMatchObject({
      quantity: 20,
      unitPrice: "$4.00",
    });
  });

  it("shows another currency with its symbol and decimals and notes the USD total", () => {
    const v = invoiceView(
      {
        ...base,
        invoice: {
          ...base.invoice,
          currency: "JPY",
          subtotal: 12000,
          totalAmount: 12000,
          exchangeRate: 150,
          status: "paid",
          paidAt: "2026-01-02T00:00:00Z",
        },
      },
      business,
    );
    expect(v.total).toBe("￥12,000");
    expect(v.tone).toBe("paid");
    expect(v.usdNote).toBe("$80.00 at 150 JPY per USD");
  });

  it("shows the SSL procurement add-on as its own line; the lines add up to the subtotal", () => {
    const ssl = {
      ...base,
      invoice: {
        ...base.invoice,
        currency: "INR",
        subtotal: 1248.75,
        totalAmount: 1248.75,
        exchangeRate: 83.25,
      },
      order: {
        serviceName: "SSL & HTTPS Setup",
        packageName: "Single Domain",
        quantity: 1,
        unitPriceUsd: 10,
        serviceCategory: "Security",
        addons: [
          {
            key: "procurement",
            name: "Certificate procurement",
            unitPriceUsd: 5,
            quantity: 1,
            amountUsd: 5,
            amountInCurrency: 416.25,
          },
        ],
      },
    };
    const v = invoiceView(ssl, business);
    expect(v.lines).toEqual([
      {
        description: "SSL & HTTPS Setup",
        detail: "Single Domain (Security)",
        quantity: 1,
        unitPrice: "₹832.50",
        amount: "₹832.50",
      },
      {
        description: "Certificate procurement",
        detail: "Add-on to SSL & HTTPS Setup",
        quantity: 1,
        unitPrice: "₹416.25",
        amount: "₹416.25",
      },
    ]);
    expect(v.subtotal).toBe("₹1,248.75");
    const usd = invoiceView(
      {
        ...ssl,
        invoice: { ...ssl.invoice, currency: "USD", subtotal: 90, totalAmount: 90, exchangeRate: 1 },
        order: {
          ...ssl.order,
          quantity: 3,
          unitPriceUsd: 25,
          addons: [{ ...ssl.order.addons[0]!, quantity: 3, amountUsd: 15, amountInCurrency: 15 }],
        },
      },
      business,
    );
    expect(usd.lines.map((l) => [l.description, l.quantity, l.unitPrice, l.amount])).toEqual([
      ["SSL & HTTPS Setup", 3, "$25.00", "$75.00"],
      ["Certificate procurement", 3, "$5.00", "$15.00"],
    ]);
  });

  it("prints the buyer and seller frozen on the invoice, with their VAT/Tax IDs, not the current ones", () => {
    const frozen = {
      ...base,
      invoice: {
        ...base.invoice,
        buyer: {
          name: "Ada Lovelace",
          email: "ada@old.example",
          company: "Engines Ltd",
          address: "1 Analytical Way, London",
          country: "United Kingdom",
          taxId: "GB123456789",
          phone: null,
        },
        seller: {
          name: "Portico Old",
          legalName: "Portico Old LLC",
          address: "1 Old Street",
          email: "old@portico.example",
          phone: "+1 555 0000",
          taxId: "US-11-1111111",
        },
      },
      client: { name: "Ada", email: "ada@new.example", phone: "+44 1", company: null, taxId: "GB999" },
    };
    const v = invoiceView(frozen, business);
    expect(v.billTo).toEqual({
      name: "Ada Lovelace",
      company: "Engines Ltd",
      addressLines: ["1 Analytical Way, London", "United Kingdom"],
      email: "ada@old.example",
      phone: null,
      taxLine: "VAT/Tax ID: GB123456789",
    });
    expect(v.business).toEqual({
      name: "Portico Old",
      legalName: "Portico Old LLC",
      address: "1 Old Street",
      email: "old@portico.example",
      phone: "+1 555 0000",
      taxLine: "VAT/Tax ID: US-11-1111111",
    });
    expect(issuedPartyLines(frozen.invoice, null, business)).toEqual({
      billTo: [
        "Ada Lovelace",
        "Engines Ltd",
        "1 Analytical Way, London",
        "United Kingdom",
        "ada@old.example",
        "VAT/Tax ID: GB123456789",
      ],
      seller: [
        "Portico Old",
        "Portico Old LLC",
        "1 Old Street",
        "old@portico.example · +1 555 0000",
        "VAT/Tax ID: US-11-1111111",
      ],
    });
  });

  it("prints the current client and business for an invoice without frozen copies, and no tax line", () => {
    const v = invoiceView(base, business);
    expect(v.billTo).toMatchObject({ name: "Ada", addressLines: [], taxLine: null });
    expect(v.business).toMatchObject({ name: "Portico IT Services", taxLine: null });
    expect(issuedPartyLines({ buyer: null, seller: null }, null, business).billTo).toEqual([]);
  });

  it("reads Partially refunded, then Refunded, with the refunded line and its credit notes; stays paid underneath", () => {
    const paid = {
      ...base,
      invoice: { ...base.invoice, status: "paid", paidAt: "2026-01-02T00:00:00Z", refundedAmount: 30 },
      creditNotes: [{ id: "n1", creditNoteNumber: "CN-2026-0001" }],
    };
    const partial = invoiceView(paid, business);
    expect(partial).toMatchObject({
      status: "paid",
      displayStatus: "partially_refunded",
      statusLabel: "Partially refunded",
      tone: "paid",
      refund: {
        amount: "$30.00",
        line: "$30.00 of $80.00 refunded",
        // Issue 37, item 3: what was paid net of it, and how the money comes back.
        netPaid: "$50.00",
        arrival: REFUND_ARRIVAL,
        creditNotes: [{ id: "n1", number: "CN-2026-0001" }],
      },
    });
    const full = invoiceView(
      {
        ...paid,
        invoice: { ...paid.invoice, refundedAmount: 80 },
        creditNotes: [...paid.creditNotes, { id: "n2", creditNoteNumber: "CN-2026-0002" }],
      },
      business,
    );
    expect(full).toMatchObject({ displayStatus: "refunded", statusLabel: "Refunded", tone: "paid" });
    expect(full.refund?.creditNotes.map((n) => n.number)).toEqual(["CN-2026-0001", "CN-2026-0002"]);
    // Nothing refunded: no refund part, the stored status as before.
    const untouched = invoiceView({ ...paid, invoice: { ...paid.invoice, refundedAmount: 0 } }, business);
    expect(untouched).toMatchObject({ displayStatus: "paid", statusLabel: "Paid", refund: null });
    expect(invoiceView(base, business).refund).toBeNull();
  });
});

describe("how a refunded invoice reads", () => {
  it("writes the refunded line in the invoice's currency", () => {
    expect(refundedLine(80, 30, "USD")).toBe("$30.00 of $80.00 refunded");
    expect(refundedLine(12000, 2000, "JPY")).toBe("￥2,000 of ￥12,000 refunded");
  });

  it("the owner's total once for USD, with the USD amount and rate for another currency; net paid exact", () => {
    expect(totalLine({ totalAmount: 10, currency: "USD", amountUsd: 10, exchangeRate: 1 })).toBe("$10.00");
    expect(totalLine({ totalAmount: 73.6, currency: "EUR", amountUsd: 80, exchangeRate: 0.92 })).toBe(
      "73,60\u00a0€ ($80.00 at 0.92 EUR per USD)",
    );
    expect(netPaidLine({ totalAmount: 0.3, refundedAmount: 0.1, currency: "USD" })).toBe("$0.20");
  });
});
