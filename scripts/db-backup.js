// @ts-check
/**
 * `npm run db:backup [-- --out FILE-OR-FOLDER]`: a backup of the database while the site runs (README
 * "Backups"). The work is done by the built app (app/features/backups/backup-cli.server.ts); this file
 * loads .env and builds once on a fresh clone (never rebuilds under a running server).
 */
import { execSync } from "node:child_process";
import { existsSync } from "node:fs";

if (existsSync(".env")) process.loadEnvFile(".env");
process.env.NODE_ENV ??= "production";

const buildPath = new URL("../build/server/index.js", import.meta.url);
if (!existsSync(buildPath)) {
  console.warn("No build yet: building…");
  execSync("npm run build", { stdio: "inherit" });
}

const build = await import(buildPath.href);
const code = await build.runDbBackup(process.argv.slice(2), process.env, {
  out: (/** @type {string} */ line) => console.log(line),
  err: (/** @type {string} */ line) => console.error(line),
});
process.exit(code);
