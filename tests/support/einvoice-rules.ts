/**
 * The official EN 16931 business rules run on generated XML (issue 40, item 5): the vendored artefacts'
 * `validate.mjs` (vendor/einvoice-en16931/, SaxonJS's xslt3), the rules compiled once per machine into
 * EINVOICE_SEF_DIR (a folder under the system's temp dir by default, shared by every test run).
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
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

/** Runs the rules on each named XML (one process for all: the compiled rules load once). */
export async function checkEn16931(documents: Record<string, string>): Promise<Record<string, RulesVerdict>> {
  const dir = mkdtempSync(path.join(tmpdir(), "portico-einvoice-"));
  const files = Object.entries(documents).map(([name, xml]) => {
    const file = path.join(dir, `${name}.xml`);
    writeFileSync(file, xml);
    return { name, file };
  });
  const out: Record<string, RulesVerdict> = {};
  for (const { name, file } of files) {
    try {
      const { stdout, stderr } = await run(process.execPath, [VALIDATE, file], {
        maxBuffer: 10_000_000,
        timeout: 180_000,
      });
      out[name] = { ok: true, report: `${stdout}${stderr}` };
    } catch (error) {
      const e = error as { code?: number; stdout?: string; stderr?: string };
      if (e.code !== 1)
        throw new Error(`validate.mjs could not run (${e.code}): ${e.stderr ?? ""}${e.stdout ?? ""}`);
      out[name] = { ok: false, report: `${e.stdout ?? ""}${e.stderr ?? ""}` };
    }
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
