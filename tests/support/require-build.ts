import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

/** What the production build is made from; a change to any of them makes the build stale. */
const SOURCES = ["app", "server", "content", "public"];
const SOURCE_FILES = ["server.js", "vite.config.ts", "react-router.config.ts", "package.json"];
/** Unit tests sit beside the code but are not part of the build. */
const NOT_BUILT = /\.test\.tsx?$/;

/** The newest modification time (ms) among the build's sources. */
export function newestSourceMtime(root = "."): { mtimeMs: number; file: string } {
  let newest = { mtimeMs: 0, file: "" };
  const visit = (file: string) => {
    const stat = statSync(file);
    if (stat.isDirectory()) {
      for (const entry of readdirSync(file)) visit(path.join(file, entry));
    } else if (!NOT_BUILT.test(file) && stat.mtimeMs > newest.mtimeMs) {
      newest = { mtimeMs: stat.mtimeMs, file };
    }
  };
  for (const dir of SOURCES) if (existsSync(path.join(root, dir))) visit(path.join(root, dir));
  for (const file of SOURCE_FILES) if (existsSync(path.join(root, file))) visit(path.join(root, file));
  return newest;
}

/**
 * Integration tests run the real built server; `npm test` builds first. They refuse a missing build and
 * a stale one (a source changed after it was built), which would test yesterday's code.
 */
export default function requireBuild() {
  const built = "build/server/index.js";
  if (!existsSync(built)) {
    throw new Error(
      "Integration tests need the production build: run `npm run build` first (npm test does).",
    );
  }
  const builtAt = statSync(built).mtimeMs;
  const newest = newestSourceMtime();
  if (newest.mtimeMs > builtAt) {
    throw new Error(
      `The production build is older than ${newest.file}: run \`npm run build\` again (npm test does).`,
    );
  }
}
