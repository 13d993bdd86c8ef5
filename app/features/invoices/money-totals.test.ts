import { describe, expect, it } from "vitest";
import { moneyFigures, moneyTotals, netPaidNote } from "./money-totals";

describe("one money truth", () => {
  it("the walk's client: $10 SSL with $4 refunded, a $305 quote's $152.50 deposit paid, the balance open", () => {
    const t = moneyTotals("USD", [
      // The SSL invoice and the deposit, paid; $4 of the first came back (a credit note).
      { status: "paid", totalMinor: 1000 + 15250, refundedMinor: 400 },
      // The balance, issued when the order completed.
      { status: "sent", totalMinor: 15250, refundedMinor: 0 },
      // A voided invoice counts nowhere.
      { status: "void", totalMinor: 9900, refundedMinor: 0 },
    ]);
    expect(t).toEqual({
      currency: "USD",
      invoiced: 31500,
      paid: 16250,
      refunded: 400,
      netPaid: 15850,
      outstanding: 15250,
    });
    const f = moneyFigures(t);
    expect(f).toMatchObject({
      netPaid: "$158.50",
      refunded: "$4.00",
      outstanding: "$152.50",
      anyRefund: true,
    });
    expect(netPaidNote(f)).toBe("$162.50 paid, $4.00 refunded");
  });

  it("overdue counts as outstanding; nothing at all is zero; a zero-decimal currency keeps its units", () => {
    expect(moneyTotals("USD", [{ status: "overdue", totalMinor: 1200, refundedMinor: 0 }])).toMatchObject({
      invoiced: 1200,
      outstanding: 1200,
      paid: 0,
    });
    const none = moneyFigures(moneyTotals("USD", []));
    expect(none).toMatchObject({ invoiced: "$0.00", netPaid: "$0.00", anyRefund: false });
    expect(netPaidNote(none)).toBe("Paid (net of refunds)");
    const yen = moneyFigures(
      moneyTotals("JPY", [{ status: "paid", totalMinor: 12000, refundedMinor: 2000 }]),
    );
    expect(yen.netPaid).toBe("￥10,000");
  });
});
