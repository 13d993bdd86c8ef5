/**
 * The rules of an order's conversation (ADR 0512), pure so the page can show them and the server
 * enforce them with the same words: what a message may be, and until when a client may write.
 *
 * The owner may write on any order, whatever its state. A client may write on their own order while it
 * is open (pending, paid, in progress) and for a follow-up period after it is completed: 7 days for
 * per-incident support (the catalogue's "7 days of follow-up included"), 30 days for every other
 * service. A cancelled order's conversation is closed to the client.
 */
import { z } from "zod";
import { ORDER_MESSAGE_MAX_CHARS } from "~/db/limits";
import type { Order } from "~/db/schema";
import { hasNoNul, invalidCharacterMessage } from "~/features/security/text";
import { formatCount } from "~/ui/format";
import { followUpEndedMessage } from "./follow-up-words";

export { ORDER_MESSAGE_MAX_CHARS };

const DAY_MS = 24 * 60 * 60 * 1000;

/** Follow-up days after completion: per-incident support's promise, and a month for the rest. */
export const INCIDENT_FOLLOW_UP_DAYS = 7;
export const DEFAULT_FOLLOW_UP_DAYS = 30;

/** Where a client buys another incident when a follow-up period is over. */
export const BUY_INCIDENT_PATH = "/client/purchase/per-incident-support";

export const CONVERSATION_MESSAGES = {
  emptyBody: "Write a message.",
  longBody: `A message may be at most ${formatCount(ORDER_MESSAGE_MAX_CHARS)} characters.`,
  badCharacter: `${invalidCharacterMessage("The message")}.`,
  followUpEnded: followUpEndedMessage,
  cancelled: "This order was cancelled, so its conversation is closed.",
  clientDeleted: "This client deleted their account, so there is no one to send a reply to.",
  orderNotFound: "Order not found.",
  rateLimited: "Too many messages in a short time. Please wait a few minutes and try again.",
  attachmentNotFound: "Attachment not found.",
} as const;

/** A message's text: trimmed, 1 to 10,000 characters, no NUL. */
export const messageBodySchema = z
  .string({ message: CONVERSATION_MESSAGES.emptyBody })
  .trim()
  .min(1, { message: CONVERSATION_MESSAGES.emptyBody })
  .max(ORDER_MESSAGE_MAX_CHARS, { message: CONVERSATION_MESSAGES.longBody })
  .refine(hasNoNul, { message: CONVERSATION_MESSAGES.badCharacter });

/** The follow-up rule's facts about an order: its state, and which service and package it is. */
export type ConversationOrder = Pick<Order, "status" | "completedAt" | "updatedAt" | "package"> & {
  serviceSlug: string | null;
};

/** Which orders are incidents: per-incident support, and Cloud Suite Management's per-incident package. */
export function isIncidentOrder(order: Pick<ConversationOrder, "serviceSlug" | "package">): boolean {
  return (
    order.serviceSlug === "per-incident-support" ||
    (order.serviceSlug === "cloud-management" && order.package === "incident")
  );
}

export function followUpDays(order: Pick<ConversationOrder, "serviceSlug" | "package">): number {
  return isIncidentOrder(order) ? INCIDENT_FOLLOW_UP_DAYS : DEFAULT_FOLLOW_UP_DAYS;
}

/** Where a client whose follow-up ended buys the same kind of help again. */
export function buyAgainPath(order: Pick<ConversationOrder, "serviceSlug" | "package">): string {
  if (order.serviceSlug === "cloud-management" && order.package === "incident") {
    return "/client/purchase/cloud-management?package=incident";
  }
  if (order.serviceSlug && order.serviceSlug !== "per-incident-support") {
    return `/client/purchase/${order.serviceSlug}`;
  }
  return BUY_INCIDENT_PATH;
}

export type ConversationState =
  | {
      open: true /** For a completed order: when the client's follow-up ends. */;
      followUpEndsAt: Date | null;
    }
  | {
      open: false;
      reason: "follow-up-ended" | "cancelled" | "client-deleted";
      /** What the page shows, and what a refused post answers. */
      message: string;
      endedAt: Date | null;
      /** Where to buy another (for an ended follow-up). */
      buyAgainPath: string | null;
    };

/** Whether the client may write on the order now (the owner always may). */
export function clientConversationState(order: ConversationOrder, now: Date): ConversationState {
  if (order.status === "cancelled") {
    return {
      open: false,
      reason: "cancelled",
      message: CONVERSATION_MESSAGES.cancelled,
      endedAt: null,
      buyAgainPath: null,
    };
  }
  if (order.status !== "completed") return { open: true, followUpEndsAt: null };
  // completed_at is set for every completed order (migration 0007 back-filled old ones); the last
  // update is the same moment for one that somehow lacks it.
  const completedAt = order.completedAt ?? order.updatedAt;
  const endsAt = new Date(completedAt.getTime() + followUpDays(order) * DAY_MS);
  if (now.getTime() < endsAt.getTime()) return { open: true, followUpEndsAt: endsAt };
  return {
    open: false,
    reason: "follow-up-ended",
    message: CONVERSATION_MESSAGES.followUpEnded(endsAt),
    endedAt: endsAt,
    buyAgainPath: buyAgainPath(order),
  };
}

/** A preview of a message for lists and notifications: one line, at most `max` characters. */
export function messagePreview(body: string, max = 140): string {
  const line = body.replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1).trimEnd()}…` : line;
}
