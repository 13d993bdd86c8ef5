import { describe, expect, it } from "vitest";
import { emailLine, parseThankYouQuery } from "./thank-you";

const q = (s: string) => parseThankYouQuery(new URLSearchParams(s));

describe("thank-you query", () => {
  it("reads type, email and name", () => {
    expect(q("type=registration&email=a@b.co&name=Ann")).toMatchObject({
      type: "registration",
      email: "a@b.co",
      name: "Ann",
    });
  });
  it("treats a missing or unknown type as other, and drops a bad email", () => {
    expect(q("").type).toBe("other");
    expect(q("type=hack&email=not-an-email")).toMatchObject({ type: "other", email: undefined });
  });
  it("drops blank names", () => {
    expect(q("name=%20%20").name).toBeUndefined();
  });
  it("says to verify for registration and confirms otherwise", () => {
    expect(emailLine(q("type=registration&email=a@b.co"))).toBe(
      "Please check your email to verify your account",
    );
    expect(emailLine(q("type=payment&email=a@b.co"))).toBe("A confirmation has been sent to a@b.co.");
    expect(emailLine(q("type=payment"))).toBeNull();
  });
});
