import { describe, expect, it } from "vitest";
import {
  CANNED,
  CHAT_TYPING_QUIET_MS,
  holdAutoOpen,
  isSendable,
  mechReply,
  replyDelayMs,
  takesTyping,
} from "./mech";

describe("mechReply", () => {
  it.each([
    ["How much is an email migration?", CANNED.emailMigration],
    ["I need to migrate 20 mailboxes", CANNED.emailMigration],
    ["Do you install SSL certificates?", CANNED.ssl],
    ["my emails go to spam, can you set up DMARC", CANNED.emailSecurity],
    ["cPanel is broken", CANNED.hosting],
    ["Can you manage our Google Workspace?", CANNED.cloud],
    ["We want to move SharePoint and OneDrive", CANNED.dataMigration],
    ["What are your prices?", CANNED.pricing],
    ["How long does it take?", CANNED.timing],
    ["Can I talk to a person?", CANNED.contact],
    ["thanks!", CANNED.thanks],
    ["Hello", CANNED.greeting],
    ["asdf qwerty", CANNED.fallback],
  ])("answers %j by keyword", (input, expected) => {
    expect(mechReply(input)).toBe(expected);
  });

  it("quotes the spec's canned prices", () => {
    expect(CANNED.emailMigration).toContain(
      "Basic (10 accounts) $299, Standard (50 accounts) $799, Enterprise (unlimited) $1499",
    );
    expect(CANNED.ssl).toContain("single domain $149, multi-domain $299, wildcard $499");
    expect(CANNED.emailSecurity).toContain("$199-$799");
    expect(CANNED.hosting).toContain("$149-$399");
    expect(CANNED.pricing).toContain("Our services start at $149");
    expect(CANNED.cloud).toContain("from $399");
    expect(CANNED.dataMigration).toContain("from $499");
  });

  it("matches whole words only and ignores case and spacing", () => {
    expect(mechReply("  SSL   ")).toBe(CANNED.ssl);
    // "this" contains "hi" but is not a greeting.
    expect(mechReply("this")).toBe(CANNED.fallback);
  });
});

describe("isSendable", () => {
  it("refuses blank messages", () => {
    expect(isSendable("")).toBe(false);
    expect(isSendable("  \n\t ")).toBe(false);
    expect(isSendable(" hi ")).toBe(true);
  });
});

describe("replyDelayMs", () => {
  it("stays within 1-2 seconds", () => {
    expect(replyDelayMs(0)).toBe(1000);
    expect(replyDelayMs(0.5)).toBe(1500);
    expect(replyDelayMs(0.9999)).toBe(2000);
    expect(replyDelayMs(5)).toBe(2000);
    expect(replyDelayMs(-1)).toBe(1000);
  });
});

describe("holdAutoOpen (Mech never opens over a form in use)", () => {
  const input = (type?: string) => ({ tagName: "INPUT", type });
  it("waits while a text field, textarea, select or editable element has focus", () => {
    for (const focused of [
      input("text"),
      input("email"),
      input(),
      { tagName: "textarea" },
      { tagName: "SELECT" },
      { tagName: "DIV", isContentEditable: true },
    ]) {
      expect(holdAutoOpen({ focused, msSinceTyping: null })).toBe(true);
    }
  });

  it("does not wait for buttons, checkboxes or nothing focused", () => {
    for (const focused of [
      input("submit"),
      input("checkbox"),
      { tagName: "BUTTON" },
      { tagName: "BODY" },
      null,
    ]) {
      expect(takesTyping(focused)).toBe(false);
      expect(holdAutoOpen({ focused, msSinceTyping: null })).toBe(false);
    }
  });

  it("waits a moment after the last key press, then lets Mech open", () => {
    const focused = { tagName: "BODY" };
    expect(holdAutoOpen({ focused, msSinceTyping: 0 })).toBe(true);
    expect(holdAutoOpen({ focused, msSinceTyping: CHAT_TYPING_QUIET_MS - 1 })).toBe(true);
    expect(holdAutoOpen({ focused, msSinceTyping: CHAT_TYPING_QUIET_MS })).toBe(false);
  });
});
