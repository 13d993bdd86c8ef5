/**
 * ADR 0803: packages only some requests need are loaded by those requests, not when the server starts.
 * Read from the production build (`npm run build` first): no server chunk imports them statically,
 * and the chunks do load them on demand. Bytes of the build, not memory readings: deterministic.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const SERVER = "build/server";
const chunks = [
  path.join(SERVER, "index.js"),
  ...readdirSync(path.join(SERVER, "assets"))
    .filter((f) => f.endsWith(".js"))
    .map((f) => path.join(SERVER, "assets", f)),
].map((file) => readFileSync(file, "utf8"));

/** Bare specifiers a chunk imports statically (`import x from "p"`, `import "p"`, `export … from "p"`). */
function staticImports(code: string): Set<string> {
  const found = new Set<string>();
  for (const m of code.matchAll(
    /(?:^|[;}\n])\s*(?:import|export)\s*(?:[^"'();]*?\sfrom\s*)?["']([^"'./][^"']*)["']/g,
  )) {
    found.add(m[1]!);
  }
  return found;
}

const everyStatic = new Set(chunks.flatMap((code) => [...staticImports(code)]));

describe("server start-up imports", () => {
  it("sees the packages every request needs", () => {
    expect(everyStatic).toContain("express");
    expect(everyStatic).toContain("react-dom/server");
  });

  it.each([
    "pdfkit",
    "fontkit",
    "fflate",
    "nodemailer",
    "stripe",
    "@zxcvbn-ts/language-common",
    "lucide-react",
  ])("does not load %s at start", (pkg) => {
    expect(everyStatic).not.toContain(pkg);
  });

  it.each([
    ["pdfkit", 'import("pdfkit")'],
    ["fontkit", 'import("fontkit")'],
    ["fflate", 'import("fflate")'],
    ["nodemailer", 'import("nodemailer")'],
    ["stripe", '("stripe")'],
    ["@zxcvbn-ts/language-common", '("@zxcvbn-ts/language-common")'],
  ])("loads %s when a request needs it", (_pkg, call) => {
    expect(chunks.some((code) => code.includes(call))).toBe(true);
  });
});
