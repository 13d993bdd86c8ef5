/**
 * Prints bench/results.json (written by `npm run bench`) as the Markdown tables of the README's
 * "Performance" section: `npx tsx bench/markdown.ts`.
 */
import { readFileSync } from "node:fs";

type Row = Record<string, string | number>;
interface Database {
  throughput: Row[];
  growth: Row[];
  targets?: Row[];
  htmlBytes?: Row[];
  checkout: Row;
  memory: Row;
  exportMemory?: Row;
  lighthouse: Row[];
}
const results = JSON.parse(readFileSync(new URL("./results.json", import.meta.url), "utf8")) as Record<
  string,
  unknown
> & { pglite?: Database; postgres?: Database };

function table(rows: Row[]): string {
  if (!rows.length) return "";
  const keys = Object.keys(rows[0]!);
  const line = (cells: (string | number)[]) => `| ${cells.join(" | ")} |`;
  return [
    line(keys),
    line(keys.map(() => "---")),
    ...rows.map((r) => line(keys.map((k) => r[k] ?? ""))),
  ].join("\n");
}

const names = { pglite: "PGlite", postgres: "PostgreSQL" } as const;
const out: string[] = [];
for (const kind of ["pglite", "postgres"] as const) {
  const r = results[kind];
  if (!r) continue;
  out.push(`**${names[kind]}: throughput (autocannon, gzip accepted)**`, "", table(r.throughput), "");
  out.push(`**${names[kind]}: portal pages, median ms one request at a time, by the client's orders**`, "");
  out.push(table(r.growth), "");
  if (r.htmlBytes?.length) {
    out.push(`**${names[kind]}: HTML bytes (lists with 50 rows)**`, "", table(r.htmlBytes), "");
  }
  if (r.targets?.length) {
    out.push(`**${names[kind]}: issue 26's targets (ADR 0820)**`, "", table(r.targets), "");
  }
  out.push(`**${names[kind]}: checkout + webhook round trips (sequential) and server memory**`, "");
  out.push(table([{ ...r.checkout, ...r.memory }]), "");
  if (r.exportMemory) {
    out.push(`**${names[kind]}: "Download my data" of the 1,000-order client (issue 25)**`, "");
    out.push(table([r.exportMemory]), "");
  }
  if (r.lighthouse.length)
    out.push("**Lighthouse, mobile preset, median of 3**", "", table(r.lighthouse), "");
}
console.log(out.join("\n"));
