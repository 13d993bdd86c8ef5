import { describe, expect, it } from "vitest";
import { invoiceStatuses } from "~/db/schema";
import {
  effectiveInvoiceStatus,
  isOverdue,
  isPastDue,
  isUnpaidOrOverdue,
  UNPAID_INVOICE_STATUSES,
} from "./invoice-status";

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
    expect(effectiveInvoiceStatus("sent", "2026-05-09T00:00:00Z", now)).toBe("overdue");
    expect(effectiveInvoiceStatus("sent", "2026-05-11T00:00:00Z", now)).toBe("sent");
    expect(effectiveInvoiceStatus("paid", "2026-05-09T00:00:00Z", now)).toBe("paid");
    expect(effectiveInvoiceStatus("void", "2026-05-09T00:00:00Z", now)).toBe("void");
  });

  it("a due date is red when past due and unpaid", () => {
    const now = new Date("2026-03-10T00:00:00Z");
    expect(isPastDue("2026-03-09T00:00:00Z", "sent", now)).toBe(true);
    expect(isPastDue("2026-03-09T00:00:00Z", "overdue", now)).toBe(true);
    expect(isPastDue("2026-03-09T00:00:00Z", "paid", now)).toBe(false);
    expect(isPastDue("2026-03-09T00:00:00Z", "void", now)).toBe(false);
    expect(isPastDue("2026-03-11T00:00:00Z", "sent", now)).toBe(false);
  });
});
