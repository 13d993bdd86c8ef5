import { describe, expect, it } from "vitest";
import { buildPaymentErrorRecord, newErrorId, PAYMENT_ERROR_KEY, storePaymentError } from "./payment-error";

const env = {
  errorId: "ERR-1-AAAA",
  now: new Date("2025-03-01T10:00:00Z"),
  userAgent: "UA",
  url: "https://x/client/purchase/a",
};

describe("payment error record", () => {
  it("has the spec's fields and errorType", () => {
    const error = new Error("boom");
    const record = buildPaymentErrorRecord(error, "\n    at Purchase", env);
    expect(record).toEqual({
      errorId: "ERR-1-AAAA",
      message: "boom",
      stack: error.stack,
      componentStack: "\n    at Purchase",
      timestamp: "2025-03-01T10:00:00.000Z",
      userAgent: "UA",
      url: "https://x/client/purchase/a",
      errorType: "payment_flow_error",
    });
  });
  it("accepts non-Error throws", () => {
    expect(buildPaymentErrorRecord("bad", undefined, env)).toMatchObject({
      message: "bad",
      componentStack: null,
    });
  });
  it("is stored under one key and never throws", () => {
    const saved: Record<string, string> = {};
    storePaymentError(
      {
        setItem: (k, v) => {
          saved[k] = v;
        },
      },
      buildPaymentErrorRecord("x", null, env),
    );
    expect(JSON.parse(saved[PAYMENT_ERROR_KEY]!).errorType).toBe("payment_flow_error");
    expect(() =>
      storePaymentError(
        {
          setItem: () => {
            throw new Error("full");
          },
        },
        buildPaymentErrorRecord("x", null, env),
      ),
    ).not.toThrow();
  });
  it("makes readable error ids", () => {
    expect(newErrorId(new Date(0), () => 0)).toBe("ERR-0-0000");
    expect(newErrorId()).toMatch(/^ERR-[0-9A-Z]+-[0-9A-Z]{4}$/);
  });
});
