import { describe, expect, it } from "vitest";
import { pastAbsoluteLifetime, SESSION_ABSOLUTE_SECONDS } from "./session-lifetimes";

describe("pastAbsoluteLifetime", () => {
  const now = new Date("2026-06-01T12:00:00Z");
  const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000);

  it("keeps a session up to its absolute lifetime and ends it after", () => {
    expect(pastAbsoluteLifetime(ago(60), now)).toBe(false);
    expect(pastAbsoluteLifetime(ago(SESSION_ABSOLUTE_SECONDS), now)).toBe(false);
    expect(pastAbsoluteLifetime(ago(SESSION_ABSOLUTE_SECONDS + 1), now)).toBe(true);
  });

  it("reads timestamps as strings too (as some drivers return them)", () => {
    expect(pastAbsoluteLifetime(ago(SESSION_ABSOLUTE_SECONDS + 60).toISOString(), now)).toBe(true);
  });
});
