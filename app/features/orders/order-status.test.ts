import { describe, expect, it } from "vitest";
import { orderStatuses } from "~/db/schema";
import {
  allowedTransitions,
  canTransition,
  isOpenOrder,
  OPEN_ORDER_STATUSES,
  WORK_OWED_ORDER_STATUSES,
} from "./order-status";

describe("open orders", () => {
  it("active orders are neither completed nor cancelled", () => {
    expect(["pending", "paid", "in_progress", "completed", "cancelled"].filter(isOpenOrder)).toEqual([
      "pending",
      "paid",
      "in_progress",
    ]);
  });

  it("open means it may still change; work is owed on the open orders already paid", () => {
    expect(orderStatuses.filter((s) => allowedTransitions(s).length > 0)).toEqual([...OPEN_ORDER_STATUSES]);
    expect(OPEN_ORDER_STATUSES.filter((s) => s !== "pending")).toEqual([...WORK_OWED_ORDER_STATUSES]);
  });
});

describe("order transitions", () => {
  it("follows pending → paid → in progress → completed", () => {
    expect(canTransition("pending", "paid")).toBe(true);
    expect(canTransition("paid", "in_progress")).toBe(true);
    expect(canTransition("in_progress", "completed")).toBe(true);
  });
  it("lets any open order be cancelled, and never leaves a final status", () => {
    for (const from of ["pending", "paid", "in_progress"] as const)
      expect(canTransition(from, "cancelled")).toBe(true);
    for (const to of orderStatuses) {
      expect(canTransition("completed", to)).toBe(false);
      expect(canTransition("cancelled", to)).toBe(false);
    }
  });
  it("skips no step and never goes back", () => {
    expect(canTransition("pending", "completed")).toBe(false);
    expect(canTransition("pending", "in_progress")).toBe(false);
    expect(canTransition("paid", "pending")).toBe(false);
    expect(allowedTransitions("in_progress")).toEqual(["completed", "cancelled"]);
  });
});
