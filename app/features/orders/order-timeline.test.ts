import { describe, expect, it } from "vitest";
import { orderTimeline, reachedAt, statusNotesFrom, type TimelineOrder } from "./order-timeline";

const t = (h: number) => new Date(Date.UTC(2026, 2, 2, h));
const base: TimelineOrder = {
  status: "pending",
  createdAt: t(1),
  paidAt: null,
  startedAt: null,
  completedAt: null,
  cancelledAt: null,
};
const steps = (o: TimelineOrder) => orderTimeline(o).map((s) => [s.key, s.state, s.at, s.current]);

describe("orderTimeline", () => {
  it("shows the whole path with a timestamp per reached step, the current one marked", () => {
    expect(steps(base)).toEqual([
      ["placed", "done", t(1), true],
      ["paid", "upcoming", null, false],
      ["in_progress", "upcoming", null, false],
      ["completed", "upcoming", null, false],
    ]);
    expect(steps({ ...base, status: "in_progress", paidAt: t(2), startedAt: t(3) })).toEqual([
      ["placed", "done", t(1), false],
      ["paid", "done", t(2), false],
      ["in_progress", "done", t(3), true],
      ["completed", "upcoming", null, false],
    ]);
    const done = { ...base, status: "completed", paidAt: t(2), startedAt: t(3), completedAt: t(4) } as const;
    expect(steps(done).map((s) => s[2])).toEqual([t(1), t(2), t(3), t(4)]);
    expect(orderTimeline(done).map((s) => s.label)).toEqual(["Placed", "Paid", "In progress", "Completed"]);
  });

  it("an incident a care plan covered reads 'Covered by plan' where a paid order reads 'Paid'", () => {
    const covered = { ...base, status: "paid", paidAt: t(1), coveredByPeriodId: "p" } as const;
    expect(orderTimeline(covered).map((s) => s.label)).toEqual([
      "Placed",
      "Covered by plan",
      "In progress",
      "Completed",
    ]);
    expect(orderTimeline({ ...covered, coveredByPeriodId: null })[1]?.label).toBe("Paid");
  });

  it("a cancelled order shows the steps it reached, then cancelled", () => {
    expect(steps({ ...base, status: "cancelled", cancelledAt: t(5) })).toEqual([
      ["placed", "done", t(1), false],
      ["cancelled", "done", t(5), true],
    ]);
    expect(steps({ ...base, status: "cancelled", paidAt: t(2), cancelledAt: t(5) }).map((s) => s[0])).toEqual(
      ["placed", "paid", "cancelled"],
    );
  });

  it("a step reached before its time was recorded (older orders) is done without a time", () => {
    expect(steps({ ...base, status: "in_progress", paidAt: t(2) })[2]).toEqual([
      "in_progress",
      "done",
      null,
      true,
    ]);
  });
});

describe("reachedAt", () => {
  it("names the column each status sets", () => {
    expect(reachedAt("in_progress", t(1))).toEqual({ startedAt: t(1) });
    expect(reachedAt("completed", t(1))).toEqual({ completedAt: t(1) });
    expect(reachedAt("cancelled", t(1))).toEqual({ cancelledAt: t(1) });
    expect(reachedAt("paid", t(1))).toEqual({});
  });
});

describe("the owner's notes on the timeline", () => {
  const row = (status: string, note: unknown, h: number, action = "order.status") => ({
    action,
    after: { status, ...(note === undefined ? {} : { note }) },
    at: t(h),
  });

  it("takes each status change's note, the latest for a step, trimmed; ignores other rows and empty notes", () => {
    const notes = statusNotesFrom([
      row("in_progress", "Second look", 5),
      row("in_progress", "  Starting tonight  ", 3),
      row("completed", "   ", 6),
      row("paid", undefined, 2),
      row("cancelled", "not a status change", 7, "order.note"),
      row("refunded", "not a step", 8),
      { action: "order.status", after: null, at: t(9) },
    ]);
    expect(notes).toEqual({ in_progress: "Second look" });
  });

  it("puts a note under its reached step only", () => {
    const order = { ...base, status: "in_progress" as const, paidAt: t(2), startedAt: t(3) };
    const timeline = orderTimeline(order, { in_progress: "Keys received", completed: "early" });
    expect(timeline.map((s) => [s.key, s.note])).toEqual([
      ["placed", null],
      ["paid", null],
      ["in_progress", "Keys received"],
      ["completed", null],
    ]);
  });
});
