/**
 * The order life cycle's rules (order-lifecycle.server.ts applies them): pending → paid → in_progress →
 * completed, and any open order (pending, paid, in progress) may be cancelled. Completed and cancelled
 * are final.
 */
import type { OrderStatus } from "~/db/schema";

const NEXT: Record<OrderStatus, readonly OrderStatus[]> = {
  pending: ["paid", "cancelled"],
  paid: ["in_progress", "cancelled"],
  in_progress: ["completed", "cancelled"],
  completed: [],
  cancelled: [],
};

/**
 * Open: not finished, so it may still change (any open order may be cancelled); completed and
 * cancelled are final. The portal's "active orders", the back office's "open orders by status".
 */
export const OPEN_ORDER_STATUSES = [
  "pending",
  "paid",
  "in_progress",
] as const satisfies readonly OrderStatus[];

/** `OPEN_ORDER_STATUSES` as a test ("Active = any not completed or cancelled."). */
export function isOpenOrder(status: string): boolean {
  return (OPEN_ORDER_STATUSES as readonly string[]).includes(status);
}

/**
 * Work owed: paid for and not finished (waiting for work or in progress), a subset of the open ones.
 * The client may answer its brief; the account that bought it cannot be deleted.
 */
export const WORK_OWED_ORDER_STATUSES = ["paid", "in_progress"] as const satisfies readonly OrderStatus[];

export function allowedTransitions(from: OrderStatus): readonly OrderStatus[] {
  return NEXT[from];
}

export function canTransition(from: OrderStatus, to: OrderStatus): boolean {
  return NEXT[from].includes(to);
}

export const ORDER_STATUS_LABELS: Record<OrderStatus, string> = {
  pending: "Pending",
  paid: "Paid",
  in_progress: "In progress",
  completed: "Completed",
  cancelled: "Cancelled",
};

/** The button text for moving an order to a status. */
export const TRANSITION_LABELS: Record<OrderStatus, string> = {
  pending: "Back to pending",
  paid: "Mark paid",
  in_progress: "Start work",
  completed: "Mark completed",
  cancelled: "Cancel order",
};

/**
 * The status a list shows for an order (issue 37, item 2): "Deposit paid" while only a quote's deposit
 * is paid (the order page's badge, `depositProgress`), else undefined (the status's own label).
 */
export const orderStatusLabel = (row: { status: string; depositPaid: boolean }): string | undefined =>
  row.depositPaid && row.status !== "cancelled" ? "Deposit paid" : undefined;
