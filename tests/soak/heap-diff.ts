/**
 * Compares two V8 heap snapshots by what their objects are (constructor or kind, name), largest growth
 * first: `npx tsx tests/soak/heap-diff.ts before.heapsnapshot after.heapsnapshot [rows]`. The soak's
 * leak hunt (SOAK_HEAP_SNAPSHOTS=1 writes the two files).
 */
import { readFileSync } from "node:fs";

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

function summarize(file: string): Map<string, { count: number; bytes: number }> {
  const snap = JSON.parse(readFileSync(file, "utf8")) as Snapshot;
  const fields = snap.snapshot.meta.node_fields;
  const width = fields.length;
  const typeAt = fields.indexOf("type");
  const nameAt = fields.indexOf("name");
  const sizeAt = fields.indexOf("self_size");
  const types = snap.snapshot.meta.node_types[0];
  const out = new Map<string, { count: number; bytes: number }>();
  for (let i = 0; i < snap.nodes.length; i += width) {
    const type = types[snap.nodes[i + typeAt]!]!;
    const name = snap.strings[snap.nodes[i + nameAt]!]!;
    // Strings and code by kind; objects by constructor.
    const key =
      type === "object" || type === "closure"
        ? `${type}:${name}`
        : type === "string" || type === "concatenated string" || type === "sliced string"
          ? "string"
          : type;
    const entry = out.get(key) ?? { count: 0, bytes: 0 };
    entry.count++;
    entry.bytes += snap.nodes[i + sizeAt]!;
    out.set(key, entry);
  }
  return out;
}

const [before, after, rows = "25"] = process.argv.slice(2);
if (!before || !after) {
  process.stderr.write("usage: tsx tests/soak/heap-diff.ts before.heapsnapshot after.heapsnapshot [rows]\n");
  process.exit(2);
}
const a = summarize(before);
const b = summarize(after);
const keys = new Set([...a.keys(), ...b.keys()]);
const diff = [...keys]
  .map((k) => {
    const x = a.get(k) ?? { count: 0, bytes: 0 };
    const y = b.get(k) ?? { count: 0, bytes: 0 };
    return { key: k, count: y.count - x.count, bytes: y.bytes - x.bytes };
  })
  .sort((p, q) => q.bytes - p.bytes)
  .slice(0, Number(rows));
process.stdout.write("bytes Δ | count Δ | what\n");
for (const d of diff)
  process.stdout.write(`${String(d.bytes).padStart(9)} | ${String(d.count).padStart(7)} | ${d.key}\n`);
