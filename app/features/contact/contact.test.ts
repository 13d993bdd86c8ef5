import { describe, expect, it } from "vitest";
import { checkContact, contactFailureMessage, MISSING_FIELDS } from "./contact";

const valid = { name: "Ada", email: "ada@example.com", subject: "Migration", message: "Hello" };

describe("checkContact", () => {
  it("accepts a complete message and trims it", () => {
    expect(checkContact({ ...valid, name: "  Ada  " })).toEqual({ ok: true, data: valid });
  });

  it.each(["name", "email", "subject", "message"])(
    "asks for every field when %s is missing or blank",
    (f) => {
      expect(checkContact({ ...valid, [f]: "   " })).toEqual({ ok: false, error: MISSING_FIELDS, field: f });
      const { [f as keyof typeof valid]: _, ...rest } = valid;
      expect(checkContact(rest)).toMatchObject({ ok: false, error: MISSING_FIELDS });
    },
  );

  it("reports a missing field before a bad email", () => {
    expect(checkContact({ ...valid, email: "nope", message: "" })).toMatchObject({ error: MISSING_FIELDS });
  });

  it("wants a real email address and bounded lengths", () => {
    expect(checkContact({ ...valid, email: "ada@" })).toEqual({
      ok: false,
      error: "Please enter a valid email address.",
      field: "email",
    });
    expect(checkContact({ ...valid, subject: "x".repeat(201) })).toEqual({
      ok: false,
      error: "Subject must be at most 200 characters.",
      field: "subject",
    });
    expect(checkContact({ ...valid, message: "x".repeat(5000) }).ok).toBe(true);
    expect(checkContact({ ...valid, message: "x".repeat(5001) }).ok).toBe(false);
  });

  it("refuses a NUL character, which the database cannot store, as a field error", () => {
    expect(checkContact({ ...valid, message: "Hel\u0000lo" })).toEqual({
      ok: false,
      error: "Message contains a character that is not allowed.",
      field: "message",
    });
    expect(checkContact({ ...valid, name: "\u0000Ada" })).toMatchObject({ field: "name" });
  });
});

describe("contactFailureMessage", () => {
  const tail = " Please try again or contact us directly at desk@example.com.";
  it.each([
    ["Invalid login: 535 bad credentials", "Email service is temporarily unavailable."],
    ["Connection timeout", "Request timed out."],
    ["The request timed out", "Request timed out."],
    ["Too many messages. Please wait.", "Too many messages. Please wait."],
    ["Server error: 502", "Server error: 502"],
  ])("maps %j to the spec's reason", (detail, reason) => {
    expect(contactFailureMessage(detail, "desk@example.com")).toBe(
      `There was an error sending your message. ${reason}${tail}`,
    );
  });
});
