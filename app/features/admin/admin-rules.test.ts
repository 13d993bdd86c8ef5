/**
 * Issue 36, item 3: the back office shows and wires; the domains decide (ADR 0010, ADR 0600). Read
 * from the sources of `app/features/admin` with TypeScript's own parser (comments do not count):
 * - no change is made here: no `.transaction(` call, no `recordAudit` (imported or called), no insert
 *   into `auditLog`. A change the back office offers is a function of the owning feature, which the
 *   back office's pages call with their deps;
 * - no file is named after a domain's module: its base name (without `.server`, `.test`, `.ts`,
 *   `.tsx`; compared without case) is neither a feature folder's name nor the base name of a file in
 *   another feature folder, so a search for `orders.server` or `OrderConversation` finds one file.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ADMIN = import.meta.dirname;
const FEATURES = path.join(ADMIN, "..");

type Rule = "transaction" | "recordAudit" | "audit insert" | "domain name";

/** Every file under `dir`, relative to it (React Router's generated types left out). */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory()) {
      if (entry.name.startsWith("+")) return [];
      return filesUnder(path.join(dir, entry.name)).map((f) => path.join(entry.name, f));
    }
    return [entry.name];
  });
}

/** "orders.server.test.ts" → "orders", "OrderConversation.tsx" → "OrderConversation". */
function baseName(file: string): string {
  return path
    .basename(file)
    .replace(/\.(tsx?|jsx?|mjs|css)$/, "")
    .replace(/\.test$/, "")
    .replace(/\.server$/, "");
}

/** The changes a source makes that only a domain may make: calls and imports, not comments. */
function changesIn(fileName: string, source: string): Rule[] {
  const found = new Set<Rule>();
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, false);
  const visit = (node: ts.Node) => {
    if (ts.isIdentifier(node) && node.text === "recordAudit") found.add("recordAudit");
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const name = node.expression.name.text;
      if (name === "transaction") found.add("transaction");
      const [table] = node.arguments;
      const tableName =
        table && ts.isPropertyAccessExpression(table) ? table.name.text : table?.getText(file);
      if (name === "insert" && tableName === "auditLog") found.add("audit insert");
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return [...found];
}

const featureFolders = readdirSync(FEATURES, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);

/** Base names (lower case) of every other feature's files, and which file has each. */
const domainNames = new Map<string, string>();
for (const folder of featureFolders.filter((f) => f !== "admin")) {
  for (const file of filesUnder(path.join(FEATURES, folder))) {
    domainNames.set(baseName(file).toLowerCase(), `features/${folder}/${file}`);
  }
}
// A folder's name is the first thing a name says (set last, so it is the one reported).
for (const folder of featureFolders.filter((f) => f !== "admin")) {
  domainNames.set(folder.toLowerCase(), `the folder features/${folder}`);
}

const adminFiles = filesUnder(ADMIN).filter((f) => /\.(tsx?|jsx?|mjs|css)$/.test(f));

/** Every rule each admin file breaks, with why. */
const broken = new Map<string, Map<Rule, string>>();
for (const file of adminFiles) {
  const rules = new Map<Rule, string>();
  if (/\.(tsx?|jsx?|mjs)$/.test(file)) {
    for (const rule of changesIn(file, readFileSync(path.join(ADMIN, file), "utf8"))) rules.set(rule, rule);
  }
  const twin = domainNames.get(baseName(file).toLowerCase());
  if (twin) rules.set("domain name", `named like ${twin}`);
  if (rules.size > 0) broken.set(file, rules);
}

describe("the back office shows and wires; the domains decide (issue 36)", () => {
  it("finds the changes and the names it forbids (the checks can fail)", () => {
    expect(changesIn("x.ts", "await deps.db.transaction(async (tx) => tx.select().from(orders));")).toEqual([
      "transaction",
    ]);
    expect(
      changesIn(
        "x.ts",
        'import { recordAudit } from "~/features/audit/audit.server";\nawait recordAudit(tx);',
      ),
    ).toEqual(["recordAudit"]);
    expect(changesIn("x.ts", "await tx.insert(auditLog).values(row);")).toEqual(["audit insert"]);
    expect(changesIn("x.ts", "await tx.insert(schema.auditLog).values(row);")).toEqual(["audit insert"]);
    // Reading the audit log, and words in comments, are not changes.
    expect(
      changesIn("x.ts", "// a transaction( with recordAudit\nawait db.select().from(auditLog).limit(5);"),
    ).toEqual([]);
    expect(baseName("orders.server.test.ts")).toBe("orders");
    expect(baseName("sub/OrderConversation.tsx")).toBe("OrderConversation");
    expect(domainNames.get("orders")).toBe("the folder features/orders");
    expect(domainNames.get("orderthread")).toBe("features/orders/OrderThread.tsx");
    expect(adminFiles).toContain("admin-rules.test.ts");
  });

  it("makes no change (no transaction, no audit write) and names no file after a domain's module", () => {
    const unexpected = [...broken].flatMap(([file, rules]) => [...rules].map(([, why]) => `${file}: ${why}`));
    expect(unexpected, "move the change into its feature, or rename the file (ADR 0010)").toEqual([]);
  });
});
