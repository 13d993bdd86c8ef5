/**
 * The official EN 16931 business rules run on generated XML (issue 40, item 5): the vendored artefacts'
 * `validate.mjs` (vendor/einvoice-en16931/, SaxonJS's xslt3), the rules compiled once per machine into
 * EINVOICE_SEF_DIR (a folder under the system's temp dir by default, shared by every test run).
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);
const VALIDATE = path.resolve("vendor/einvoice-en16931/validate.mjs");

export interface RulesVerdict {
  /** True when no fatal rule failed. */
  ok: boolean;
  /** What validate.mjs printed: each failed rule's id, flag and text. */
  report: string;
}

/**
 * Runs the rules on each named XML in one validate.mjs process (it takes several files; it still runs
 * xslt3 once per file, about a second each, so this saves only a Node start per file), then splits
 * its report by file: validate.mjs prints a line
 * "FILE: SYNTAX, N fatal, M warning" per file, followed by that file's failed rules, indented.
 */
export async function checkEn16931(documents: Record<string, string>): Promise<Record<string, RulesVerdict>> {
  const dir = mkdtempSync(path.join(tmpdir(), "portico-einvoice-"));
  const files = Object.entries(documents).map(([name, xml]) => {
    const file = path.join(dir, `${name}.xml`);
    writeFileSync(file, xml);
    return { name, file };
  });
  let output: string;
  try {
    const { stdout, stderr } = await run(process.execPath, [VALIDATE, ...files.map((f) => f.file)], {
      maxBuffer: 10_000_000,
      timeout: 290_000,
    });
    output = `${stdout}${stderr}`;
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    // Exit 1: some document failed a fatal rule; anything else: the rules could not run.
    if (e.code !== 1)
      throw new Error(`validate.mjs could not run (${e.code}): ${e.stderr ?? ""}${e.stdout ?? ""}`);
    output = `${e.stdout ?? ""}${e.stderr ?? ""}`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const lines = output.split("\n");
  const out: Record<string, RulesVerdict> = {};
  for (const { name, file } of files) {
    const at = lines.findIndex((line) => line.startsWith(`${file}: `));
    const header = lines[at];
    if (!header) throw new Error(`validate.mjs said nothing of ${name}:\n${output}`);
    const report = [header];
    for (let i = at + 1; i < lines.length && lines[i]!.startsWith("  "); i++) report.push(lines[i]!);
    out[name] = { ok: /: (CII|UBL), 0 fatal, \d+ warning$/.test(header), report: report.join("\n") };
  }
  return out;
}

const CII_SCHEMA_DIR = path.resolve("vendor/einvoice-en16931/cii/schema/CII/uncefact/data/standard");
const CII_SCHEMA_FILES = [
  "CrossIndustryInvoice_100pD16B.xsd",
  "CrossIndustryInvoice_QualifiedDataType_100pD16B.xsd",
  "CrossIndustryInvoice_ReusableAggregateBusinessInformationEntity_100pD16B.xsd",
  "CrossIndustryInvoice_UnqualifiedDataType_100pD16B.xsd",
];

/** The CII D16B schema's errors for `xml` (libxml2 compiled to WebAssembly: npm xmllint-wasm); [] when valid. */
export async function ciiSchemaErrors(xml: string): Promise<string[]> {
  const { validateXML } = await import("xmllint-wasm");
  const [main, ...rest] = CII_SCHEMA_FILES.map((fileName) => ({
    fileName,
    contents: readFileSync(path.join(CII_SCHEMA_DIR, fileName), "utf8"),
  }));
  const result = await validateXML({
    xml: [{ fileName: "document.xml", contents: xml }],
    schema: [main!],
    preload: rest,
  });
  return result.valid ? [] : result.errors.map((e) => e.message);
}
