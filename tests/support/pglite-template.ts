/**
 * Global setup of the fault suite: one PGlite folder made by the production server (created,
 * migrated, seeded, stopped cleanly), which each case copies instead of creating its own. Creating a
 * PGlite database takes a WASM initdb of 15 to 25 s on a busy 2-core machine; a copy takes milliseconds.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { launchServer } from "./server-process";

declare module "vitest" {
  export interface ProvidedContext {
    /** A stopped PGlite folder with the schema and catalogue, to copy. */
    pgliteTemplate: string;
  }
}

export default async function makePgliteTemplate(project: TestProject) {
  const root = mkdtempSync(path.join(tmpdir(), "portico-faults-template-"));
  const dir = path.join(root, "pglite");
  const server = await launchServer(
    { PGLITE_DIR: dir, AUTH_SECRET: "template-secret-0123456789-0123456789", LOG_LEVEL: "info" },
    "template",
  );
  const code = await server.stop();
  if (code !== 0) throw new Error(`the template server exited with ${code}`);
  project.provide("pgliteTemplate", dir);
  return () => rmSync(root, { recursive: true, force: true });
}
