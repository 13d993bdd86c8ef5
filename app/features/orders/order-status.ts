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
