import { describe, expect, it } from "vitest";
import { hasNoNul, invalidCharacterMessage } from "./text";

describe("hasNoNul", () => {
  it("refuses text with a NUL character anywhere", () => {
    expect(hasNoNul("Ada")).toBe(true);
    expect(hasNoNul("")).toBe(true);
    expect(hasNoNul("A\u0000da")).toBe(false);
    expect(hasNoNul("\u0000")).toBe(false);
  });

  it("names the field in the form's style", () => {
    expect(invalidCharacterMessage("Name")).toBe("Name contains a character that is not allowed");
    expect(invalidCharacterMessage("Message", true)).toBe(
      "Message contains a character that is not allowed.",
    );
  });
});
