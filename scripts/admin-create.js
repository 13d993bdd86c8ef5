// @ts-check
/**
 * `npm run admin:create -- --email you@example.com [--name …] [--password …]`: makes an admin account.
 * The work is done by the built app (app/features/accounts/admin-create-cli.server.ts); this file loads
 * .env, builds once on a fresh clone (never rebuilds under a running server), and asks for the password
 * without echo on a terminal.
 */
import { execSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createInterface } from "node:readline";

if (existsSync(".env")) process.loadEnvFile(".env");
process.env.NODE_ENV ??= "production";

const buildPath = new URL("../build/server/index.js", import.meta.url);
if (!existsSync(buildPath)) {
  console.warn("No build yet: building…");
  execSync("npm run build", { stdio: "inherit" });
}

/** @param {string} question @returns {Promise<string>} */
function promptHidden(question) {
  return new Promise((resolve) => {
    const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
    /** @type {any} */ (rl)._writeToOutput = (/** @type {string} */ s) => {
      if (s.startsWith(question)) process.stdout.write(question);
    };
    rl.question(question, (answer) => {
      rl.close();
      process.stdout.write("\n");
      resolve(answer);
    });
  });
}

const build = await import(buildPath.href);
const code = await build.runAdminCreate(process.argv.slice(2), process.env, {
  out: (/** @type {string} */ line) => console.log(line),
  err: (/** @type {string} */ line) => console.error(line),
  promptPassword: process.stdin.isTTY && process.stdout.isTTY ? promptHidden : null,
});
process.exit(code);
