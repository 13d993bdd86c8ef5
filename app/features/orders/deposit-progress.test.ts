import { describe, expect, it } from "vitest";
import { depositProgress } from "./deposit-progress";

const inv = (kind: string, status: string, totalAmount: number) => ({
  kind,
  status,
  totalAmount,
  currency: "USD",
});

describe("depositProgress", () => {
  it("is null for an order billed whole, or a voided deposit", () => {
    expect(depositProgress([inv("full", "paid", 10)], 10)).toBeNull();
    expect(depositProgress([inv("deposit", "void", 152.5)], 305)).toBeNull();
  });
  it("says what is due, what was paid and what is left", () => {
    expect(depositProgress([inv("deposit", "sent", 152.5)], 305)).toEqual({
      line: "Deposit $152.50 of $305.00 due",
      next: null,
      badge: null,
    });
    expect(depositProgress([inv("deposit", "paid", 152.5)], 305)).toEqual({
      line: "Deposit paid $152.50 of $305.00",
      next: "Balance $152.50 invoiced when the work is complete",
      badge: "Deposit paid",
    });
    expect(
      depositProgress([inv("deposit", "paid", 324.79), inv("balance", "sent", 757.83)], 1082.62),
    ).toEqual({
      line: "Deposit paid $324.79 of $1,082.62",
      next: "Balance $757.83 due",
      badge: "Deposit paid",
    });
    expect(depositProgress([inv("deposit", "paid", 152.5), inv("balance", "paid", 152.5)], 305)).toEqual({
      line: "Paid in full: $305.00",
      next: null,
      badge: null,
    });
  });
});
