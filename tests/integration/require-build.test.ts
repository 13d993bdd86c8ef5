import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { newestSourceMtime } from "../support/require-build";

describe("the stale-build guard", () => {
  const root = mkdtempSync(path.join(tmpdir(), "portico-build-guard-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const touch = (file: string, seconds: number) => {
    const full = path.join(root, file);
    mkdirSync(path.dirname(full), { recursive: true });
    writeFileSync(full, "x");
    utimesSync(full, seconds, seconds);
  };

  it("finds the newest source file, in folders and at the top, but not unit tests", () => {
    touch("app/routes/a.tsx", 1_000);
    touch("app/features/b/deep.ts", 2_000);
    touch("server/app.ts", 1_500);
    touch("vite.config.ts", 500);
    touch("app/features/b/deep.test.ts", 9_000);
    touch("tests/integration/x.test.ts", 9_000);
    expect(newestSourceMtime(root)).toEqual({
      mtimeMs: 2_000_000,
      file: path.join(root, "app/features/b/deep.ts"),
    });
    touch("package.json", 3_000);
    expect(newestSourceMtime(root).file).toBe(path.join(root, "package.json"));
  });

  it("holds for this checkout: the build under test is not older than its sources", async () => {
    const { statSync } = await import("node:fs");
    expect(statSync("build/server/index.js").mtimeMs).toBeGreaterThanOrEqual(newestSourceMtime().mtimeMs);
  });
});
