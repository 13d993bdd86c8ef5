import { describe, expect, it } from "vitest";
import {
  BUY_INCIDENT_PATH,
  CONVERSATION_MESSAGES,
  type ConversationOrder,
  clientConversationState,
  followUpDays,
  messageBodySchema,
  messagePreview,
} from "./conversation";

const DAY = 24 * 60 * 60 * 1000;
const completedAt = new Date("2026-03-02T15:30:00Z");
const order = (over: Partial<ConversationOrder> = {}): ConversationOrder => ({
  status: "completed",
  completedAt,
  updatedAt: completedAt,
  package: "basic",
  serviceSlug: "per-incident-support",
  ...over,
});
const at = (days: number) => new Date(completedAt.getTime() + days * DAY);

describe("messageBodySchema", () => {
  it("trims, and takes 1 to 10,000 characters without NUL", () => {
    expect(messageBodySchema.parse("  Hello\nthere  ")).toBe("Hello\nthere");
    expect(messageBodySchema.parse("x".repeat(10_000))).toHaveLength(10_000);
    const message = (v: unknown) => messageBodySchema.safeParse(v).error?.issues[0]?.message;
    expect(message("   \n ")).toBe("Write a message.");
    expect(message(undefined)).toBe("Write a message.");
    expect(message("x".repeat(10_001))).toBe("A message may be at most 10,000 characters.");
    expect(message("a\u0000b")).toBe("The message contains a character that is not allowed.");
  });
});

describe("the client's follow-up period", () => {
  it("per-incident support: 7 days after completion, then closed with the date and a link to buy another", () => {
    expect(followUpDays(order())).toBe(7);
    expect(clientConversationState(order(), at(6))).toEqual({ open: true, followUpEndsAt: at(7) });
    expect(clientConversationState(order(), at(7))).toMatchObject({ open: false });
    expect(clientConversationState(order(), at(8))).toEqual({
      open: false,
      reason: "follow-up-ended",
      message: "Follow-up period ended on March 9, 2026.",
      endedAt: at(7),
      buyAgainPath: BUY_INCIDENT_PATH,
    });
  });

  it("Cloud Suite Management's per-incident package is an incident too; its setup and other services get 30 days", () => {
    const cloudIncident = order({ serviceSlug: "cloud-management", package: "incident" });
    expect(followUpDays(cloudIncident)).toBe(7);
    expect(clientConversationState(cloudIncident, at(8))).toMatchObject({
      open: false,
      buyAgainPath: "/client/purchase/cloud-management?package=incident",
    });
    const migration = order({ serviceSlug: "email-migration" });
    expect(followUpDays(migration)).toBe(30);
    expect(clientConversationState(migration, at(8)).open).toBe(true);
    expect(clientConversationState(migration, at(31))).toMatchObject({
      open: false,
      message: "Follow-up period ended on April 1, 2026.",
      buyAgainPath: "/client/purchase/email-migration",
    });
  });

  it("open orders are open; a cancelled one is closed to the client", () => {
    for (const status of ["pending", "paid", "in_progress"] as const) {
      expect(clientConversationState(order({ status, completedAt: null }), at(100))).toEqual({
        open: true,
        followUpEndsAt: null,
      });
    }
    expect(clientConversationState(order({ status: "cancelled" }), at(0))).toEqual({
      open: false,
      reason: "cancelled",
      message: CONVERSATION_MESSAGES.cancelled,
      endedAt: null,
      buyAgainPath: null,
    });
  });

  it("a completed order without completed_at counts from its last update", () => {
    expect(clientConversationState(order({ completedAt: null, updatedAt: completedAt }), at(8)).open).toBe(
      false,
    );
  });
});

describe("messagePreview", () => {
  it("is one line, cut with an ellipsis", () => {
    expect(messagePreview("Hello\n\n  there")).toBe("Hello there");
    expect(messagePreview("x".repeat(200), 10)).toBe(`${"x".repeat(9)}…`);
  });
});
