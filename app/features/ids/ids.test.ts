import { describe, expect, it } from "vitest";
import { isUuid, UUID_PATTERN } from "./ids";

describe("isUuid", () => {
  it("takes a whole UUID in either case, of any version", () => {
    expect(isUuid("3f2504e0-4f89-41d3-9a0c-0305e82c3301")).toBe(true);
    expect(isUuid("3F2504E0-4F89-11D3-9A0C-0305E82C3301")).toBe(true);
    expect(isUuid("00000000-0000-0000-0000-000000000000")).toBe(true);
  });

  it("refuses anything else", () => {
    for (const value of [
      "",
      "3f2504e0-4f89-41d3-9a0c-0305e82c330",
      "3f2504e0-4f89-41d3-9a0c-0305e82c33011",
      " 3f2504e0-4f89-41d3-9a0c-0305e82c3301",
      "3f2504e04f8941d39a0c0305e82c3301",
      "3f2504e0-4f89-41d3-9a0c-0305e82c330g",
      "INV-2026-0001",
      null,
      undefined,
    ]) {
      expect(isUuid(value), String(value)).toBe(false);
    }
  });

  it("gives its pattern without anchors, to be part of a longer one", () => {
    const path = new RegExp(`^/orders/${UUID_PATTERN}$`, "i");
    expect(path.test("/orders/3f2504e0-4f89-41d3-9a0c-0305e82c3301")).toBe(true);
    expect(path.test("/orders/3f2504e0-4f89-41d3-9a0c-0305e82c3301/x")).toBe(false);
  });
});
