/**
 * `npm run domains:check -- example.com [--selector s1] [--expires 2027-03-31] [--json]`: checks domains
 * from this machine and prints the report (app/features/domain-checks/cli.server.ts, ADR 0540). Runs the
 * source with tsx; reads .env like the server.
 */
import { existsSync } from "node:fs";
import { runDomainsCheck } from "../app/features/domain-checks/cli.server";

if (existsSync(".env")) process.loadEnvFile(".env");

const code = await runDomainsCheck(process.argv.slice(2), process.env, {
  out: (line) => console.log(line),
  err: (line) => console.error(line),
});
process.exit(code);
