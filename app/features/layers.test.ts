/**
 * The layers between features (ADR 0012): a feature imports only features of a lower layer, so the
 * graph between `app/features/*` folders has no cycle and a newcomer can read it from the bottom up.
 * The imports are read with TypeScript's own scanner (`ts.preProcessFile`: static, type-only,
 * re-exports and dynamic `import()` alike); type-only imports count. Test files are not part of the
 * graph (a test may set up any feature's records).
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const FEATURES = path.join(import.meta.dirname);

/** Every feature folder, lowest layer first. A feature may import features of lower layers only. */
const LAYERS: readonly (readonly string[])[] = [
  // 0 · foundations: no feature below them
  [
    "money",
    "ids",
    "jobs",
    "business",
    "legal",
    "security",
    "audit",
    "rate-limit",
    "lists",
    "live",
    "blog",
    "tax",
  ],
  // 1 · shared services on the foundations
  ["currency", "mail", "notifications", "catalogue", "newsletter", "einvoice"],
  // 2 · people
  ["accounts"],
  // 3 · documents that bill; the domain watch (issue 39: its alerts tell clients by their preferences)
  ["invoices", "domain-checks"],
  // 4 · what is bought
  ["orders"],
  // 5 · taking the money
  ["payments"],
  // 6 · after the sale, and what renews (care plans, ADR 0530)
  ["refunds", "quotes", "plans"],
  // 7 · a client's data as a whole, and the database's copies
  ["privacy", "backups"],
  // 8 · public forms
  ["contact"],
  // 9 · the public site's shell
  ["site"],
  // 10 · audiences and pages that compose everything below
  ["services", "chat", "portal", "admin", "testing"],
];

/**
 * Imports against the order that are still to be untied (issue 36). This list may only shrink: the
 * test fails on any edge against the order that is not here, and on any edge here that no longer exists.
 */
const KNOWN_AGAINST_THE_ORDER: readonly string[] = [];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** The feature a module specifier points into, from a file inside `features/<from>/`. */
function featureOf(specifier: string, file: string): string | null {
  if (specifier.startsWith("~/features/")) return specifier.split("/")[2] ?? null;
  if (!specifier.startsWith(".")) return null;
  const relative = path.relative(FEATURES, path.resolve(path.dirname(file), specifier));
  if (relative.startsWith("..")) return null;
  return relative.split(path.sep)[0] ?? null;
}

interface Edge {
  from: string;
  to: string;
  files: string[];
}

function featureEdges(): Map<string, Edge> {
  const edges = new Map<string, Edge>();
  // Only files inside a feature's folder (a file at the top of features/ belongs to none).
  for (const file of sourceFiles(FEATURES).filter((f) => path.dirname(f) !== FEATURES)) {
    const from = path.relative(FEATURES, file).split(path.sep)[0]!;
    const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
    for (const { fileName } of importedFiles) {
      const to = featureOf(fileName, file);
      if (!to || to === from) continue;
      const key = `${from} -> ${to}`;
      const edge = edges.get(key) ?? { from, to, files: [] };
      edge.files.push(`${path.relative(FEATURES, file)} imports ${fileName}`);
      edges.set(key, edge);
    }
  }
  return edges;
}

const layerOf = new Map(LAYERS.flatMap((names, layer) => names.map((name) => [name, layer] as const)));

/** The strongly connected groups of more than one feature (Tarjan's algorithm). */
function cycles(edges: Iterable<Edge>): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) {
    next.set(from, [...(next.get(from) ?? []), to]);
    if (!next.has(to)) next.set(to, []);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  let counter = 0;
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v)!) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1) groups.push(group.sort());
    }
  };
  for (const v of next.keys()) if (!index.has(v)) visit(v);
  return groups;
}

describe("layers between features (ADR 0012)", () => {
  const edges = featureEdges();

  it("places every feature folder in exactly one layer", () => {
    const folders = readdirSync(FEATURES, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort();
    const placed = LAYERS.flat();
    expect(new Set(placed).size, "a feature is in two layers").toBe(placed.length);
    expect([...placed].sort()).toEqual(folders);
  });

  it("imports only features of a lower layer, except the known edges still to untie", () => {
    const against = [...edges.values()]
      .filter((e) => layerOf.get(e.to)! >= layerOf.get(e.from)!)
      .map((e) => `${e.from} -> ${e.to}`);
    const unexpected = against.filter((e) => !KNOWN_AGAINST_THE_ORDER.includes(e));
    expect(
      unexpected.map((e) => `${e}: ${edges.get(e)!.files.join("; ")}`),
      "imports against the layers of ADR 0012",
    ).toEqual([]);
    const untied = KNOWN_AGAINST_THE_ORDER.filter((e) => !against.includes(e));
    expect(untied, "untied: take these off KNOWN_AGAINST_THE_ORDER").toEqual([]);
  });

  it("has no cycle but through the known edges still to untie", () => {
    const kept = [...edges.entries()]
      .filter(([key]) => !KNOWN_AGAINST_THE_ORDER.includes(key))
      .map(([, edge]) => edge);
    expect(cycles(kept)).toEqual([]);
  });

  it("finds a cycle and an edge against the order when there is one (the checks can fail)", () => {
    const made: Edge[] = [
      { from: "orders", to: "invoices", files: [] },
      { from: "invoices", to: "orders", files: [] },
    ];
    expect(cycles(made)).toEqual([["invoices", "orders"]]);
    expect(layerOf.get("orders")! >= layerOf.get("invoices")!).toBe(true);
    expect(featureOf("~/features/money/format", path.join(FEATURES, "orders/x.ts"))).toBe("money");
    expect(featureOf("../refunds/refund-math", path.join(FEATURES, "invoices/x.ts"))).toBe("refunds");
    expect(featureOf("./pricing", path.join(FEATURES, "orders/x.ts"))).toBe("orders");
  });
});
