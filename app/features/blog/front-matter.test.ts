import { describe, expect, it } from "vitest";
import { parseFrontMatter } from "./front-matter";

describe("parseFrontMatter", () => {
  it("reads quoted and bare values and returns the body", () => {
    const doc = parseFrontMatter('---\ntitle: "A: B \\"C\\""\nauthor: Jane\n---\n\n# Body\n');
    expect(doc.attributes).toEqual({ title: 'A: B "C"', author: "Jane" });
    expect(doc.body).toBe("\n# Body\n");
  });
  it("treats a file without a block as all body", () => {
    expect(parseFrontMatter("# Only body")).toEqual({ attributes: {}, body: "# Only body" });
  });
  it("refuses a line that is not key: value", () => {
    expect(() => parseFrontMatter("---\nnot a pair\n---\n")).toThrow(/Invalid front-matter line/);
  });
});
