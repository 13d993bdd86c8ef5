import { describe, expect, it } from "vitest";
import { isRefundFormToken, issueRefundFormToken } from "./refund-form-token.server";

const invoice = "0b6c8a52-5d0e-4f59-9a55-0e7d2f3c4b1a";
const other = "7d1f3c9e-2a4b-4c6d-8e0f-1a2b3c4d5e6f";

describe("refund form tokens", () => {
  it("accepts a token it issued for that invoice, and each token is new", () => {
    const token = issueRefundFormToken("secret", invoice);
    expect(isRefundFormToken("secret", invoice, token)).toBe(true);
    expect(issueRefundFormToken("secret", invoice)).not.toBe(token);
  });

  it("refuses a made-up token, another invoice's, another secret's, or a tampered one", () => {
    const token = issueRefundFormToken("secret", invoice);
    expect(isRefundFormToken("secret", other, token)).toBe(false);
    expect(isRefundFormToken("other secret", invoice, token)).toBe(false);
    expect(
      isRefundFormToken("secret", invoice, `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`),
    ).toBe(false);
    for (const made of ["", "x", "a.b", `${"a".repeat(22)}.${"b".repeat(43)}`, `${token}\u0000`]) {
      expect(isRefundFormToken("secret", invoice, made)).toBe(false);
    }
  });
});
