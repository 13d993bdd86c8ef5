import { describe, expect, it } from "vitest";
import { buttonClass } from "./button";
import { cn } from "./cn";

describe("cn", () => {
  it("lets a later class of the same group win", () => {
    expect(cn("px-4 py-2 text-sm", "py-3 text-base")).toBe("px-4 py-3 text-base");
  });

  it("keeps a colour and a size that share the text- prefix", () => {
    expect(cn("text-sm text-ink", "text-base")).toBe("text-ink text-base");
  });

  it("skips empty parts", () => {
    expect(cn("a", false, null, undefined, "", "b")).toBe("a b");
  });
});

describe("buttonClass", () => {
  it("lets a caller override the primitive's size", () => {
    const cls = buttonClass("primary", "w-full py-3 text-base").split(" ");
    expect(cls).toContain("text-base");
    expect(cls).not.toContain("text-sm");
    expect(cls).toContain("py-3");
    expect(cls).not.toContain("py-2");
  });
});
