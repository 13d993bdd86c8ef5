import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase, PGLITE_SETTINGS, queryRows } from "./client.server";

/** ADR 0803: the embedded PostgreSQL runs with small buffers, both in memory and on disk. */
describe("openDatabase on PGlite", () => {
  let handle: DatabaseHandle | null = null;
  let dir = "";
  afterEach(async () => {
    await handle?.close();
    handle = null;
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = "";
  });

  const setting = async (name: string) =>
    (await queryRows<{ value: string }>(handle!.db, sql.raw(`show ${name}`)))
      .map((row) => Object.values(row)[0])
      .at(0);

  it.each(["memory", "folder"])(
    "starts PostgreSQL with the chosen memory settings (%s)",
    async (where) => {
      if (where === "folder") dir = mkdtempSync(path.join(os.tmpdir(), "portico-settings-"));
      handle = await openDatabase({ kind: "pglite", dir: where === "folder" ? dir : "memory://" });
      expect(await setting("shared_buffers")).toBe("16MB");
      expect(await setting("wal_buffers")).toBe("512kB");
      for (const [name, value] of Object.entries(PGLITE_SETTINGS)) {
        expect(await setting(name)).toBe(value);
      }
    },
    60_000,
  );

  it("reopens a folder with the same settings", async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), "portico-settings-"));
    handle = await openDatabase({ kind: "pglite", dir });
    await handle.db.execute(sql`create table kept (n int)`);
    await handle.close();
    handle = await openDatabase({ kind: "pglite", dir });
    expect(await queryRows(handle.db, sql`select * from kept`)).toEqual([]);
    expect(await setting("shared_buffers")).toBe("16MB");
  }, 60_000);
});
