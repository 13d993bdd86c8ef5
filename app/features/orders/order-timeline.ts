/**
 * An order's timeline (the order page): placed, paid, in progress, then completed or cancelled, each with
 * when it happened and the owner's note to the client with that change, if any. Pure: the timestamps are
 * the order's own columns, written by the life cycle's state changes (order-lifecycle.server.ts,
 * payment.server.ts) through `reachedAt`; the notes are the audit log's `order.status` rows
 * (`statusNotesFrom`, read by status-notes.server.ts).
 */
import type { Order, OrderStatus } from "~/db/schema";

export type TimelineStepKey = "placed" | "paid" | "in_progress" | "completed" | "cancelled";

export interface TimelineStep {
  key: TimelineStepKey;
  label: string;
  /** When the step was reached; null when it was not (or, for old orders, not recorded). */
  at: Date | null;
  /** done: reached; upcoming: not yet. */
  state: "done" | "upcoming";
  /** The step the order is at now. */
  current: boolean;
  /** The owner's note to the client when the order reached this step (plain text); null when none. */
  note: string | null;
}

/** The owner's note with each status change, by the step it reached (the latest when several). */
export type StatusNotes = Partial<Record<TimelineStepKey, string>>;

export const TIMELINE_LABELS: Readonly<Record<TimelineStepKey, string>> = {
  placed: "Placed",
  paid: "Paid",
  in_progress: "In progress",
  completed: "Completed",
  cancelled: "Cancelled",
};

export type TimelineOrder = Pick<
  Order,
  "status" | "createdAt" | "paidAt" | "startedAt" | "completedAt" | "cancelledAt"
> &
  Partial<Pick<Order, "coveredByPeriodId">>;

/** The paid step of an incident a care plan covered: nothing was paid (issue 38, item 6). */
export const COVERED_STEP_LABEL = "Covered by plan";

/** How far along the normal path each status is (cancelled is off it). */
const PROGRESS: Readonly<Record<Exclude<OrderStatus, "cancelled">, number>> = {
  pending: 0,
  paid: 1,
  in_progress: 2,
  completed: 3,
};

/**
 * The steps of an order. An open or completed order shows the whole path (placed, paid, in progress,
 * completed), steps not reached yet as upcoming. A cancelled order shows the steps it reached, then
 * cancelled: a step counts as reached when its timestamp is set (an order cancelled while pending was
 * never paid).
 */
export function orderTimeline(order: TimelineOrder, notes: StatusNotes = {}): TimelineStep[] {
  const step = (key: TimelineStepKey, at: Date | null, done: boolean, current: boolean): TimelineStep => ({
    key,
    label: key === "paid" && order.coveredByPeriodId ? COVERED_STEP_LABEL : TIMELINE_LABELS[key],
    at: done ? at : null,
    state: done ? "done" : "upcoming",
    current,
    note: done ? (notes[key] ?? null) : null,
  });
  if (order.status === "cancelled") {
    return [
      step("placed", order.createdAt, true, false),
      ...(order.paidAt ? [step("paid", order.paidAt, true, false)] : []),
      ...(order.startedAt ? [step("in_progress", order.startedAt, true, false)] : []),
      step("cancelled", order.cancelledAt, true, true),
    ];
  }
  const progress = PROGRESS[order.status];
  return [
    step("placed", order.createdAt, true, progress === 0),
    step("paid", order.paidAt, progress >= 1, progress === 1),
    step("in_progress", order.startedAt, progress >= 2, progress === 2),
    step("completed", order.completedAt, progress >= 3, progress === 3),
  ];
}

/** The timestamp an order's row gets when it reaches a status (none for pending; paid sets paid_at). */
export function reachedAt(
  to: OrderStatus,
  at: Date,
): Partial<Pick<Order, "startedAt" | "completedAt" | "cancelledAt">> {
  switch (to) {
    case "in_progress":
      return { startedAt: at };
    case "completed":
      return { completedAt: at };
    case "cancelled":
      return { cancelledAt: at };
    default:
      return {};
  }
}

const STEP_KEYS: ReadonlySet<string> = new Set(Object.keys(TIMELINE_LABELS));

/**
 * The notes of an order's status changes from its audit rows (`order.status`, `after: {status, note}`,
 * written by `transitionOrder`), in any order: the latest note for each step wins. Other rows, and
 * changes without a note, are ignored.
 */
export function statusNotesFrom(
  rows: ReadonlyArray<{ action: string; after: unknown; at: Date }>,
): StatusNotes {
  const notes: StatusNotes = {};
  const latest: Partial<Record<TimelineStepKey, number>> = {};
  for (const row of rows) {
    if (row.action !== "order.status" || !row.after || typeof row.after !== "object") continue;
    const { status, note } = row.after as { status?: unknown; note?: unknown };
    if (typeof status !== "string" || !STEP_KEYS.has(status)) continue;
    if (typeof note !== "string" || note.trim() === "") continue;
    const key = status as TimelineStepKey;
    const at = new Date(row.at).getTime();
    if ((latest[key] ?? Number.NEGATIVE_INFINITY) > at) continue;
    latest[key] = at;
    notes[key] = note.trim();
  }
  return notes;
}
