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

describe("cn on the kit's groups", () => {
  it("merges padding sides, sizes, weights, colours, borders and radius", () => {
    expect(cn("px-4 py-2", "p-6")).toBe("p-6");
    expect(cn("p-6", "px-2")).toBe("p-6 px-2");
    expect(cn("w-4 h-4", "size-6")).toBe("size-6");
    expect(cn("font-semibold", "font-bold")).toBe("font-bold");
    expect(cn("bg-brand-600 text-white", "bg-white text-ink")).toBe("bg-white text-ink");
    expect(cn("border border-slate-300", "border-red-600")).toBe("border border-red-600");
    expect(cn("rounded-lg", "rounded-full")).toBe("rounded-full");
    expect(cn("inline-flex", "hidden")).toBe("hidden");
    expect(cn("text-sm text-center", "text-left")).toBe("text-sm text-left");
  });

  it("keeps variants apart and leaves unknown classes alone", () => {
    expect(cn("hover:bg-brand-700 bg-brand-600", "bg-white")).toBe("hover:bg-brand-700 bg-white");
    expect(cn("transition-colors", "animate-spin")).toBe("transition-colors animate-spin");
  });
});
