import { describe, expect, it } from "vitest";
import { declineInWords, monthlyRecurringRevenueUsd, shownPlanStatus, sumUsd } from "./owner-figures";

describe("monthly recurring revenue", () => {
  it("counts a monthly plan at its price and a yearly one at a twelfth of its price", () => {
    expect(
      monthlyRecurringRevenueUsd([
        { cycle: "monthly", priceUsd: 49 },
        { cycle: "yearly", priceUsd: 490 },
      ]),
    ).toBe(89.83); // 49 + 40.8333…
    expect(monthlyRecurringRevenueUsd([])).toBe(0);
  });

  it("sums in cents and rounds once, never each twelfth", () => {
    // A thousand yearly plans of $490: $40,833.33, where rounding each would give $40,830.
    const many = Array.from({ length: 1000 }, () => ({ cycle: "yearly" as const, priceUsd: 490 }));
    expect(monthlyRecurringRevenueUsd(many)).toBe(40833.33);
    // Two yearly plans of $0.06: a half cent each, one cent together (rounded once, not twice to 0).
    expect(
      monthlyRecurringRevenueUsd([
        { cycle: "yearly", priceUsd: 0.06 },
        { cycle: "yearly", priceUsd: 0.06 },
      ]),
    ).toBe(0.01);
    // Floats that do not add exactly as binary numbers: 0.1 + 0.2.
    expect(
      monthlyRecurringRevenueUsd([
        { cycle: "monthly", priceUsd: 0.1 },
        { cycle: "monthly", priceUsd: 0.2 },
      ]),
    ).toBe(0.3);
    expect(sumUsd([0.1, 0.2, 129])).toBe(129.3);
  });
});

describe("a plan's status in the client's words", () => {
  it("follows the client's page: waiting, active once the first invoice is paid, ending when cancelled at period end", () => {
    expect(shownPlanStatus({ status: "incomplete", cancelAtPeriodEnd: false }, false)).toBe("waiting");
    expect(shownPlanStatus({ status: "incomplete", cancelAtPeriodEnd: false }, true)).toBe("active");
    expect(shownPlanStatus({ status: "active", cancelAtPeriodEnd: true }, true)).toBe("ending");
    expect(shownPlanStatus({ status: "past_due", cancelAtPeriodEnd: false }, true)).toBe("past_due");
    expect(shownPlanStatus({ status: "cancelled", cancelAtPeriodEnd: true }, true)).toBe("cancelled");
  });
});

describe("a declined charge in words", () => {
  it("says what the bank said and what follows", () => {
    expect(
      declineInWords({
        code: "card_declined",
        declineCode: "insufficient_funds",
        message: "Your card has insufficient funds.",
        outcome: "soft",
      }),
    ).toBe("Insufficient funds; retried on days 1, 3 and 7 after the due date.");
    expect(
      declineInWords({ code: "card_declined", declineCode: "stolen_card", message: null, outcome: "hard" }),
    ).toBe("The card is reported stolen; not retried.");
    expect(
      declineInWords({
        code: "authentication_required",
        declineCode: "authentication_required",
        message: null,
        outcome: "authentication",
      }),
    ).toBe("The bank asks the cardholder to confirm the payment; not retried: only the client can pay it.");
  });

  it("falls back to the provider's message, then to the code", () => {
    expect(
      declineInWords({ code: null, declineCode: "odd_code", message: "The bank said no.", outcome: "soft" }),
    ).toBe("The bank said no; retried on days 1, 3 and 7 after the due date.");
    expect(declineInWords({ code: null, declineCode: "odd_code", message: " ", outcome: "hard" })).toBe(
      "Declined (odd_code); not retried.",
    );
  });
});
