/**
 * Scheduled backups in the running site (ADR 0902): with BACKUP_DIR set the site backs up every
 * BACKUP_INTERVAL_HOURS, keeps the newest BACKUP_KEEP files and shows the last backup (or "No backup
 * yet", or the last error) on the back-office dashboard; one process at a time takes a backup through
 * the `job_leases` lease, and a run is only taken once the last one is an interval old.
 */
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { desc, isNull, sql } from "drizzle-orm";
import pino from "pino";
import { afterAll, describe, expect, it } from "vitest";
import { type Database, type DatabaseHandle, queryRows } from "~/db/client.server";
import { backupRuns } from "~/db/schema";
import { formatBytes, parseBackupFileName } from "~/features/backups/backup-files";
import { BACKUP_LEASE, runScheduledBackup } from "~/features/backups/scheduled-backups.server";
import { codeJournal } from "~/features/backups/versions.server";
import { acquireLease } from "~/features/jobs/leases.server";
import { formatDateTime } from "~/ui/format";
import { accountsOn } from "../support/accounts";
import { scratch } from "../support/backups";
import { text } from "../support/browserless";
import { sharedDatabase, testDatabases } from "../support/databases";
import { startTestServer, type TestServer } from "../support/server";

const newestTag = codeJournal().at(-1)!.tag;
/** About a second (the shortest interval allowed): the schedule offers as often. */
const INTERVAL_HOURS = "0.0003";
const INTERVAL_MS = Math.round(0.0003 * 3_600_000);

const goodRuns = (db: Database) =>
  db.select().from(backupRuns).where(isNull(backupRuns.error)).orderBy(desc(backupRuns.startedAt));

/** The backup files in a folder (by name), sorted. */
const backupFiles = (dir: string) =>
  existsSync(dir)
    ? readdirSync(dir)
        .filter((n) => parseBackupFileName(n) !== null)
        .sort()
    : [];

/** Polls `check` until it returns a value (not undefined), or fails after `ms`. */
async function until<T>(what: string, check: () => Promise<T | undefined>, ms = 45_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`not seen within ${ms} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function dashboard(server: TestServer, n: number): Promise<string> {
  const accounts = accountsOn(
    () => server,
    (i) => `198.51.102.${n * 10 + i}`,
  );
  const admin = await accounts.signedIn({
    email: `owner${n}.${Date.now()}@example.com`,
    name: "Owner",
    role: "admin",
  });
  const res = await admin.session.get("/admin/dashboard");
  expect(res.status).toBe(200);
  return text(await res.text());
}

const LAST_BACKUP =
  /Last backup: ([A-Z][a-z]{2} \d{1,2}, \d{4}, \d\d:\d\d UTC), (portico-\S+?), (\d+(?:\.\d)? [KMGT]?B)</;

describe.each(testDatabases)("scheduled backups on $name", (database) => {
  const place = scratch(`scheduled-${database.name}`);
  afterAll(() => place.remove());

  it("backs up on schedule, keeps the newest BACKUP_KEEP files and shows the last on the dashboard", async () => {
    const dir = place.folder("scheduled");
    const server = await startTestServer(database, {
      TRUST_PROXY: "loopback",
      BACKUP_DIR: dir,
      BACKUP_INTERVAL_HOURS: INTERVAL_HOURS,
      BACKUP_KEEP: "2",
    });
    try {
      const db = server.portico.runtime.database.db;
      // Three good backups, and the folder settled on the newest two of them (pruned after each).
      const runs = await until("three backups and the folder pruned to two", async () => {
        const good = await goodRuns(db);
        if (good.length < 3) return undefined;
        const newest = good
          .slice(0, 2)
          .map((r) => r.file!)
          .sort();
        return JSON.stringify(backupFiles(dir)) === JSON.stringify(newest) ? good : undefined;
      });
      for (const run of runs.slice(0, 2)) {
        expect(run.schemaVersion).toBe(newestTag);
        expect(run.file).toMatch(database.name === "pglite" ? /\.pglite\.tar\.gz$/ : /\.pgdump$/);
        expect(run.file).toContain(`-${newestTag}.`);
        expect(statSync(path.join(dir, run.file!)).size).toBe(run.sizeBytes);
      }
      // Never two at once, and each an interval after the one before.
      const ordered = [...runs].reverse();
      for (let i = 1; i < ordered.length; i++) {
        expect(ordered[i]!.startedAt.getTime()).toBeGreaterThanOrEqual(ordered[i - 1]!.finishedAt.getTime());
        expect(ordered[i]!.startedAt.getTime() - ordered[i - 1]!.startedAt.getTime()).toBeGreaterThanOrEqual(
          INTERVAL_MS,
        );
      }

      const html = await dashboard(server, 1);
      const line = LAST_BACKUP.exec(html);
      expect(line, "the dashboard's backup line").not.toBeNull();
      const [, at, file, size] = line!;
      // The line names a backup the site made (the newest when the page was rendered).
      const shown = (await goodRuns(db)).find((r) => r.file === file);
      expect(shown).toBeDefined();
      expect(at).toBe(formatDateTime(shown!.startedAt));
      expect(size).toBe(formatBytes(shown!.sizeBytes!));
      expect(html).not.toContain("No backup yet");
      expect(html).not.toContain("Scheduled backups: off");
      // Plain status: when the next one is due and where backups go.
      expect(html).toMatch(/Next backup: [A-Z][a-z]{2} \d{1,2}, \d{4}, \d\d:\d\d UTC/);
      expect(html).toContain("Saved in: ");
    } finally {
      await server.close();
    }
  }, 60_000);

  it("takes a backup only with the lease and when due, and shows the last error", async () => {
    // No BACKUP_DIR: this server schedules nothing; the test offers as its processes would.
    const server = await startTestServer(database, { TRUST_PROXY: "loopback" });
    try {
      const handle: DatabaseHandle = server.portico.runtime.database;
      const db = handle.db;
      const before = await dashboard(server, 2);
      expect(before).toContain("No backup yet");
      expect(before).toContain("Scheduled backups: off");
      expect(before).not.toContain("BACKUP_DIR");

      const dir = place.folder("leased");
      const logLines: Array<Record<string, unknown>> = [];
      const configured = server.portico.runtime.config.database;
      const deps = {
        database: handle,
        postgresUrl: configured.kind === "postgres" ? configured.url : null,
        dir,
        intervalMs: 3_600_000,
        keep: 5,
        logger: pino({ level: "info" }, { write: (line: string) => void logLines.push(JSON.parse(line)) }),
        env: process.env,
      };
      const now = new Date();
      // Another process holds the lease: nothing is done.
      expect(await acquireLease(db, BACKUP_LEASE, "another-process", now, 60_000)).toBe(true);
      expect(await runScheduledBackup(deps, { holder: "this-process", now })).toEqual({
        ran: false,
        reason: "busy",
      });
      expect(backupFiles(dir)).toEqual([]);
      expect(await goodRuns(db)).toEqual([]);

      // Once it is let go, this process takes it; the next offer is not due until an interval later.
      await db.execute(sql`delete from job_leases where name = ${BACKUP_LEASE}`);
      const first = await runScheduledBackup(deps, { holder: "this-process", now });
      expect(first).toMatchObject({ ran: true, ok: true, version: newestTag });
      expect(backupFiles(dir)).toHaveLength(1);
      // The log says what was written.
      expect(logLines.find((l) => l.msg === "backup written")).toMatchObject({
        file: path.join(dir, backupFiles(dir)[0]!),
        bytes: statSync(path.join(dir, backupFiles(dir)[0]!)).size,
        version: newestTag,
        pruned: [],
      });
      // Released after the run.
      expect(await queryRows(db, sql`select holder from job_leases where name = ${BACKUP_LEASE}`)).toEqual(
        [],
      );
      const soon = new Date(now.getTime() + 30 * 60_000);
      expect(await runScheduledBackup(deps, { holder: "other-process", now: soon })).toEqual({
        ran: false,
        reason: "not-due",
      });
      const later = new Date(now.getTime() + 3_600_000);
      expect(await runScheduledBackup(deps, { holder: "other-process", now: later })).toMatchObject({
        ran: true,
        ok: true,
      });
      expect(backupFiles(dir)).toHaveLength(2);

      if (database.name === "postgres") {
        // Without pg_dump: the run fails with how to install it (also the server's warning at start).
        const missing = await runScheduledBackup(
          { ...deps, env: { PATH: "/nonexistent" } },
          { holder: "this-process", now: new Date(now.getTime() + 2 * 3_600_000) },
        );
        expect(missing).toMatchObject({ ran: true, ok: false });
        expect(missing.ran && !missing.ok && missing.error).toContain("apt-get install postgresql-client");
      }
      // A backup that cannot be written: recorded, shown with the last good one, retried later.
      const blocked = path.join(dir, "not-a-folder");
      writeFileSync(blocked, "");
      const failedAt = new Date(now.getTime() + 3 * 3_600_000);
      const failed = await runScheduledBackup(
        { ...deps, dir: path.join(blocked, "backups") },
        { holder: "this-process", now: failedAt },
      );
      expect(failed).toMatchObject({ ran: true, ok: false });
      expect(logLines.find((l) => l.msg === "backup failed")).toMatchObject({ level: 40 });
      const after = await dashboard(server, 3);
      const [lastGood] = await goodRuns(db);
      expect(after).toContain(
        `Last backup: ${formatDateTime(later)}, ${lastGood!.file}, ${formatBytes(lastGood!.sizeBytes!)}`,
      );
      expect(after).toContain(`The last backup failed (${formatDateTime(failedAt)}): `);
      expect(after).toMatch(/The last backup failed \([^)]*\): [^<]*(ENOTDIR|not a directory)/);
    } finally {
      await server.close();
    }
  }, 60_000);
});

// Several processes share one database only on PostgreSQL (as CI sets TEST_DATABASE_URL).
describe.each(testDatabases.filter((d) => d.name === "postgres"))(
  "scheduled backups of two processes on $name",
  (database) => {
    const place = scratch("scheduled-two");
    afterAll(() => place.remove());

    it("lets one of two processes on one database take each backup", async () => {
      const shared = await sharedDatabase(database);
      const dir = place.folder("two-processes");
      mkdirSync(dir, { recursive: true });
      const env = {
        TRUST_PROXY: "loopback",
        BACKUP_DIR: dir,
        BACKUP_INTERVAL_HOURS: INTERVAL_HOURS,
        BACKUP_KEEP: "3",
      };
      const a = await startTestServer(shared.shared, env);
      const b = await startTestServer(shared.shared, env);
      try {
        const db = a.portico.runtime.database.db;
        const runs = await until("four backups by two processes", async () => {
          const good = await goodRuns(db);
          return good.length >= 4 ? good : undefined;
        });
        const all = await db.select().from(backupRuns).orderBy(backupRuns.startedAt);
        expect(all.filter((r) => r.error !== null)).toEqual([]);
        // Each run on its own (the lease), each an interval after the one before (the schedule is shared).
        for (let i = 1; i < all.length; i++) {
          expect(all[i]!.startedAt.getTime()).toBeGreaterThanOrEqual(all[i - 1]!.finishedAt.getTime());
          expect(all[i]!.startedAt.getTime() - all[i - 1]!.startedAt.getTime()).toBeGreaterThanOrEqual(
            INTERVAL_MS,
          );
        }
        expect(new Set(runs.map((r) => r.file)).size).toBe(runs.length);
      } finally {
        await a.close();
        await b.close();
        await shared.drop();
      }
      // Once both have stopped, the folder holds the newest three backups.
      expect(backupFiles(dir)).toHaveLength(3);
    }, 60_000);
  },
);
