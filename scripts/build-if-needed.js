// @ts-check
/**
 * `npm start` runs this first: it builds the app when there is no build yet, or when any source
 * file is newer than the build, so a fresh clone needs only `npm install && npm start`.
 */
import { execSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

const marker = "build/server/index.js";
const sources = [
  "app",
  "server",
  "content",
  "public",
  "vite.config.ts",
  "react-router.config.ts",
  "package.json",
];

/** @param {string} p @returns {number} */
function newest(p) {
  if (!existsSync(p)) return 0;
  const stat = statSync(p);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let max = stat.mtimeMs;
  for (const entry of readdirSync(p)) max = Math.max(max, newest(path.join(p, entry)));
  return max;
}

const built = existsSync(marker) ? statSync(marker).mtimeMs : 0;
const changed = Math.max(...sources.map(newest));
if (built === 0 || changed > built) {
  console.warn(built === 0 ? "No build yet: building…" : "Sources changed since the last build: rebuilding…");
  execSync("npm run build", { stdio: "inherit" });
}
