/**
 * ADR 0011: a route module wires (guards, a feature call, a feature's component) and is at most 150
 * lines; a page's logic and markup live in its feature. This walks app/routes and names every module
 * over the limit, with its length.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const MAX_ROUTE_LINES = 150;
const ROUTES = join(import.meta.dirname);
const ROOT = join(ROUTES, "..", "..");

/** Every route module under `dir` (tests and generated types left out). */
function routeModules(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name.startsWith("+") ? [] : routeModules(path);
    return /\.(ts|tsx)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** Lines as an editor counts them (a final newline does not start a line). */
function lineCount(source: string): number {
  return source.replace(/\n$/, "").split("\n").length;
}

describe("route modules", () => {
  it("counts lines as an editor does", () => {
    expect(lineCount("a\nb\n")).toBe(2);
    expect(lineCount("a\nb")).toBe(2);
  });

  it(`are at most ${MAX_ROUTE_LINES} lines each (ADR 0011)`, () => {
    const modules = routeModules(ROUTES);
    expect(modules.length).toBeGreaterThan(50);
    const over = modules
      .map((path) => ({ file: relative(ROOT, path), lines: lineCount(readFileSync(path, "utf8")) }))
      .filter((m) => m.lines > MAX_ROUTE_LINES)
      .map((m) => `${m.file} (${m.lines} lines)`);
    expect(over, `route modules over ${MAX_ROUTE_LINES} lines: ${over.join(", ")}`).toEqual([]);
  });
});
