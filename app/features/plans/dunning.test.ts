import { describe, expect, it } from "vitest";
import { type ChargeAttempt, classifyDecline, nextDunningStep, renewalChargeKey } from "./dunning";

describe("classifying a decline", () => {
  it("reads Stripe's advice code first", () => {
    expect(
      classifyDecline({
        code: "card_declined",
        declineCode: "generic_decline",
        adviceCode: "do_not_try_again",
      }),
    ).toBe("hard");
    expect(
      classifyDecline({ code: "card_declined", declineCode: "stolen_card", adviceCode: "try_again_later" }),
    ).toBe("soft");
    expect(classifyDecline({ code: "card_declined", adviceCode: "confirm_card_data" })).toBe(
      "authentication",
    );
  });

  it("then the decline code", () => {
    expect(classifyDecline({ code: "card_declined", declineCode: "insufficient_funds" })).toBe("soft");
    expect(classifyDecline({ code: "card_declined", declineCode: "generic_decline" })).toBe("soft");
    expect(classifyDecline({ code: "card_declined", declineCode: "stolen_card" })).toBe("hard");
    expect(classifyDecline({ code: "card_declined", declineCode: "lost_card" })).toBe("hard");
    expect(classifyDecline({ code: "expired_card" })).toBe("hard");
    expect(classifyDecline({ code: "authentication_required", declineCode: "authentication_required" })).toBe(
      "authentication",
    );
    expect(classifyDecline({})).toBe("soft");
  });
});

const DUE = "2027-03-31";
const failed = (attempt: number, outcome: ChargeAttempt["outcome"] = "soft"): ChargeAttempt => ({
  attempt,
  outcome,
});

describe("the next dunning step", () => {
  it("charges on the due date, then retries on days 1, 3 and 7, then suspends", () => {
    expect(nextDunningStep(DUE, [], "2027-03-30")).toEqual({ kind: "wait", on: DUE });
    expect(nextDunningStep(DUE, [], DUE)).toEqual({ kind: "charge", attempt: 0 });
    expect(nextDunningStep(DUE, [failed(0)], DUE)).toEqual({ kind: "wait", on: "2027-04-01" });
    expect(nextDunningStep(DUE, [failed(0)], "2027-04-01")).toEqual({ kind: "charge", attempt: 1 });
    expect(nextDunningStep(DUE, [failed(0), failed(1)], "2027-04-02")).toEqual({
      kind: "wait",
      on: "2027-04-03",
    });
    expect(nextDunningStep(DUE, [failed(0), failed(1)], "2027-04-03")).toEqual({
      kind: "charge",
      attempt: 2,
    });
    expect(nextDunningStep(DUE, [failed(0), failed(1), failed(2)], "2027-04-07")).toEqual({
      kind: "charge",
      attempt: 3,
    });
    expect(nextDunningStep(DUE, [failed(0), failed(1), failed(2), failed(3)], "2027-04-07")).toEqual({
      kind: "suspend",
    });
  });

  it("is done once any attempt succeeded", () => {
    expect(nextDunningStep(DUE, [failed(0), { attempt: 1, outcome: "succeeded" }], "2027-04-09")).toEqual({
      kind: "done",
    });
  });

  it("never retries a hard decline or a card that needs its holder; suspends 7 days after the due date", () => {
    for (const outcome of ["hard", "authentication"] as const) {
      expect(nextDunningStep(DUE, [failed(0, outcome)], "2027-04-01")).toEqual({
        kind: "wait",
        on: "2027-04-07",
      });
      expect(nextDunningStep(DUE, [failed(0, outcome)], "2027-04-06")).toEqual({
        kind: "wait",
        on: "2027-04-07",
      });
      expect(nextDunningStep(DUE, [failed(0, outcome)], "2027-04-07")).toEqual({ kind: "suspend" });
    }
    expect(nextDunningStep(DUE, [failed(0), failed(1, "hard")], "2027-04-03")).toEqual({
      kind: "wait",
      on: "2027-04-07",
    });
  });

  it("after a pause of the scheduler makes only the latest due attempt, never several in one catch-up", () => {
    expect(nextDunningStep(DUE, [], "2027-04-04")).toEqual({ kind: "charge", attempt: 2 });
    expect(nextDunningStep(DUE, [failed(2)], "2027-04-04")).toEqual({ kind: "wait", on: "2027-04-07" });
    expect(nextDunningStep(DUE, [], "2027-05-01")).toEqual({ kind: "charge", attempt: 3 });
    expect(nextDunningStep(DUE, [failed(3)], "2027-05-01")).toEqual({ kind: "suspend" });
  });

  it("answers the same however often it is asked on a day (attempts in any order)", () => {
    const attempts = [failed(1), failed(0)];
    expect(nextDunningStep(DUE, attempts, "2027-04-02")).toEqual(
      nextDunningStep(DUE, attempts, "2027-04-02"),
    );
    expect(nextDunningStep(DUE, attempts, "2027-04-02")).toEqual({ kind: "wait", on: "2027-04-03" });
  });
});

it("one idempotency key per plan, period and attempt", () => {
  expect(renewalChargeKey("sub-1", 4, 2)).toBe("plan:sub-1:period:4:attempt:2");
  expect(
    new Set([renewalChargeKey("a", 1, 0), renewalChargeKey("a", 1, 1), renewalChargeKey("a", 2, 0)]).size,
  ).toBe(3);
});
