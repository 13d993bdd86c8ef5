/**
 * `npm run domains:check -- example.com [more.example …] [--selector s1] [--expires 2027-03-31] [--json]`
 * (scripts/domains-check.ts): checks each domain now, from this machine, and prints the report in plain
 * lines (or JSON). Settings come from the environment like the server's (DNS_SERVERS; loadConfig refuses
 * the tests' settings in production). Exit code 0: no problem found; 1: a problem; 2: bad usage.
 */
import { parseArgs } from "node:util";
import { loadConfig } from "~/config.server";
import { checkDomain, type DomainCheckDeps, domainCheckDeps } from "./check-domain.server";
import { DKIM_SELECTOR } from "./dkim";
import { reportLines } from "./format";
import { parseDomainName } from "./names";

export interface DomainsCheckIo {
  out(line: string): void;
  err(line: string): void;
}

const USAGE =
  "Usage: npm run domains:check -- example.com [other.example …] [--selector NAME]… [--expires YYYY-MM-DD] [--json]";

/** Runs the command; returns the exit code. `makeDeps` is the tests' way to point it at local servers. */
export async function runDomainsCheck(
  argv: string[],
  env: Record<string, string | undefined>,
  io: DomainsCheckIo,
  makeDeps: (settings: ReturnType<typeof loadConfig>["domainChecks"]) => DomainCheckDeps = (s) =>
    domainCheckDeps(s),
): Promise<number> {
  let parsed: {
    values: { selector?: string[]; expires?: string; json?: boolean; help?: boolean };
    positionals: string[];
  };
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        selector: { type: "string", multiple: true },
        expires: { type: "string" },
        json: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
    });
  } catch (error) {
    io.err(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.out(USAGE);
    return 0;
  }
  if (positionals.length === 0) {
    io.err(`Name at least one domain.\n${USAGE}`);
    return 2;
  }
  const names = [];
  for (const input of positionals) {
    const name = parseDomainName(input);
    if (!name.ok) {
      io.err(`${input}: ${name.error}`);
      return 2;
    }
    names.push(name.name);
  }
  const selectors = values.selector ?? [];
  const badSelector = selectors.find((s) => !DKIM_SELECTOR.test(s));
  if (badSelector !== undefined) {
    io.err(`--selector ${badSelector}: a DKIM selector is letters, digits, hyphens and dots.`);
    return 2;
  }
  let typedExpiry: Date | null = null;
  if (values.expires !== undefined) {
    typedExpiry = /^\d{4}-\d{2}-\d{2}$/.test(values.expires) ? new Date(`${values.expires}T00:00:00Z`) : null;
    if (!typedExpiry || Number.isNaN(typedExpiry.getTime())) {
      io.err(`--expires ${values.expires}: give the date as YYYY-MM-DD.`);
      return 2;
    }
  }
  let deps: DomainCheckDeps;
  try {
    deps = makeDeps(loadConfig(env).domainChecks);
  } catch (error) {
    io.err((error as Error).message);
    return 2;
  }
  let problem = false;
  for (const name of names) {
    const report = await checkDomain(name, deps, { dkimSelectors: selectors, typedExpiry });
    if (report.verdict === "problem") problem = true;
    if (values.json) io.out(JSON.stringify(report, null, 2));
    else for (const line of reportLines(report)) io.out(line);
  }
  return problem ? 1 : 0;
}
