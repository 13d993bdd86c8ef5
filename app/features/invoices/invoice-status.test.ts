import { describe, expect, it } from "vitest";
import { invoiceStatuses } from "~/db/schema";
import {
  invoiceStatusLabel,
  isOverdue,
  isPastDue,
  isUnpaidOrOverdue,
  refundState,
  shownInvoiceStatus,
  UNPAID_INVOICE_STATUSES,
} from "./invoice-status";

/** An invoice of 80 USD, nothing refunded, due 2026-05-09. */
const invoice = { status: "sent", dueDate: "2026-05-09T00:00:00Z", totalAmount: 80, currency: "USD" };
/** The status of an invoice not yet due, paid or not, with `refunded` of its `total` given back. */
const beforeDue = new Date("2026-05-01T00:00:00Z");
const shownBeforeDue = (status: string, total: number, refunded: number, currency: string) =>
  shownInvoiceStatus(
    { ...invoice, status, totalAmount: total, refundedAmount: refunded, currency },
    beforeDue,
  );

describe("invoice status rules", () => {
  it("owes money only when sent or overdue", () => {
    expect(invoiceStatuses.filter(isUnpaidOrOverdue)).toEqual(["sent", "overdue"]);
    expect([...UNPAID_INVOICE_STATUSES].sort()).toEqual(invoiceStatuses.filter(isUnpaidOrOverdue).sort());
  });

  it("is overdue when stored so, or still sent after its due date", () => {
    const now = new Date("2026-05-10T00:00:00Z");
    expect(isOverdue("overdue", "2026-05-11T00:00:00Z", now)).toBe(true);
    expect(isOverdue("sent", "2026-05-09T00:00:00Z", now)).toBe(true);
    expect(isOverdue("sent", "2026-05-11T00:00:00Z", now)).toBe(false);
    expect(isOverdue("paid", "2026-05-09T00:00:00Z", now)).toBe(false);
    expect(isOverdue("void", "2026-05-09T00:00:00Z", now)).toBe(false);
  });

  it("shows an unpaid invoice past its due date as overdue", () => {
    const now = new Date("2026-05-10T00:00:00Z");
    const shown = (status: string, dueDate: string) =>
      shownInvoiceStatus({ ...invoice, status, dueDate }, now);
    expect(shown("sent", "2026-05-09T00:00:00Z")).toBe("overdue");
    expect(shown("sent", "2026-05-11T00:00:00Z")).toBe("sent");
    expect(shown("paid", "2026-05-09T00:00:00Z")).toBe("paid");
    expect(shown("void", "2026-05-09T00:00:00Z")).toBe("void");
  });

  it("a due date is red when past due and unpaid", () => {
    const now = new Date("2026-03-10T00:00:00Z");
    expect(isPastDue("2026-03-09T00:00:00Z", "sent", now)).toBe(true);
    expect(isPastDue("2026-03-09T00:00:00Z", "overdue", now)).toBe(true);
    expect(isPastDue("2026-03-09T00:00:00Z", "paid", now)).toBe(false);
    expect(isPastDue("2026-03-09T00:00:00Z", "void", now)).toBe(false);
    expect(isPastDue("2026-03-11T00:00:00Z", "sent", now)).toBe(false);
  });

  it("says none, partial or full from exact minor units", () => {
    expect(refundState(80, 0, "USD")).toBe("none");
    expect(refundState(80, 0.01, "USD")).toBe("partial");
    expect(refundState(80, 79.99, "USD")).toBe("partial");
    expect(refundState(80, 80, "USD")).toBe("full");
    expect(refundState(94.4, 30.1 + 64.3, "USD")).toBe("full");
    expect(refundState(12_000, 1_200, "JPY")).toBe("partial");
    expect(refundState(12_000, 12_000, "JPY")).toBe("full");
  });

  it("shows a paid invoice as partially refunded or refunded, and leaves other statuses alone", () => {
    expect(shownBeforeDue("paid", 80, 0, "USD")).toBe("paid");
    expect(shownBeforeDue("paid", 80, 30, "USD")).toBe("partially_refunded");
    expect(shownBeforeDue("paid", 80, 80, "USD")).toBe("refunded");
    expect(shownBeforeDue("paid", 12_000, 1_200, "JPY")).toBe("partially_refunded");
    expect(shownBeforeDue("sent", 80, 0, "USD")).toBe("sent");
    expect(shownBeforeDue("void", 80, 80, "USD")).toBe("void");
    expect(shownBeforeDue("overdue", 80, 30, "USD")).toBe("overdue");
  });

  it("derives the shown status from the stored one and the refunded amount, exactly in minor units", () => {
    expect(shownBeforeDue("paid", 80, 0, "USD")).toBe("paid");
    expect(shownBeforeDue("paid", 80, 30, "USD")).toBe("partially_refunded");
    expect(shownBeforeDue("paid", 80, 79.99, "USD")).toBe("partially_refunded");
    expect(shownBeforeDue("paid", 80, 80, "USD")).toBe("refunded");
    expect(shownBeforeDue("paid", 0.3, 0.1 + 0.2, "USD")).toBe("refunded");
    expect(shownBeforeDue("sent", 80, 0, "USD")).toBe("sent");
  });

  it("counts overdue and refunds together: a paid invoice past its due date is never overdue", () => {
    const afterDue = new Date("2026-06-01T00:00:00Z");
    const paid = { ...invoice, status: "paid", refundedAmount: 30 };
    expect(shownInvoiceStatus(paid, afterDue)).toBe("partially_refunded");
    expect(shownInvoiceStatus({ ...paid, refundedAmount: 80 }, afterDue)).toBe("refunded");
    expect(shownInvoiceStatus({ ...invoice, refundedAmount: null }, afterDue)).toBe("overdue");
    // Not in the data (only a paid invoice is refunded), but if it were: what is owed comes first.
    expect(shownInvoiceStatus({ ...invoice, status: "overdue", refundedAmount: 30 }, afterDue)).toBe(
      "overdue",
    );
  });

  it("labels shown statuses in the words the pages use, others with a capital", () => {
    expect(invoiceStatusLabel("partially_refunded")).toBe("Partially refunded");
    expect(invoiceStatusLabel("refunded")).toBe("Refunded");
    expect(invoiceStatusLabel("paid")).toBe("Paid");
    expect(invoiceStatusLabel("sent")).toBe("Sent");
    expect(invoiceStatusLabel("overdue")).toBe("Overdue");
  });
});
