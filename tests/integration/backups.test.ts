/**
 * Backups that are proven to restore (ADR 0902), through `npm run db:backup` and `npm run db:restore` on
 * the build: a running site with clients, orders, invoices, a message's file and sessions is backed up
 * while it serves, restored into an empty folder or database, and a server on the restored data serves
 * the same pages, sign-ins, sessions, files and invoice PDF bytes. A non-empty target is refused without
 * --force; an older backup gets the newer migrations, a newer one is refused; a backup taken during a
 * burst of checkouts restores to a consistent state (every order has its invoice, numbers gap-free).
 */
import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import type { NodePgDatabase } from "drizzle-orm/node-postgres";
import { migrate as migrateNodePg } from "drizzle-orm/node-postgres/migrator";
import type { PgliteDatabase } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, queryRows } from "~/db/client.server";
import { MIGRATIONS_FOLDER, migrateDatabase } from "~/db/migrate.server";
import { messageAttachments, orderMessages, user } from "~/db/schema";
import { appliedMigrations, codeJournal } from "~/features/backups/versions.server";
import { type FixtureOrder, makeOrders } from "~/features/testing/fixtures.server";
import { SAMPLE_PDF } from "~/features/testing/sample-files";
import { BACKUP_TEST_SECRET, emptyTarget, runDbScript, scratch, type Target } from "../support/backups";
import { location, Session } from "../support/browserless";
import { checkoutTokenIn } from "../support/clients";
import { testDatabases } from "../support/databases";
import { PASSWORD, signedInClient } from "../support/portal";
import { startTestServer, type TestServer } from "../support/server";

const journal = codeJournal();
const newestTag = journal.at(-1)!.tag;
const previousTag = journal.at(-2)!.tag;
const YEAR = new Date().getUTCFullYear();

const SERVER_ENV = { AUTH_SECRET: BACKUP_TEST_SECRET, TRUST_PROXY: "loopback" };

/** A page as the server renders it, less what differs on every answer (the CSP nonce). */
async function pageOf(res: Response): Promise<string> {
  expect(res.status).toBe(200);
  return (await res.text()).replace(/nonce="[^"]*"/g, 'nonce=""');
}

/** GET with a session's cookies against any server (a session is bound to its own). */
function getWith(baseUrl: string, session: Session, pathname: string): Promise<Response> {
  return fetch(new URL(pathname, baseUrl), { redirect: "manual", headers: { cookie: session.cookieHeader } });
}

const bytes = async (res: Response) => {
  expect(res.status).toBe(200);
  return new Uint8Array(await res.arrayBuffer());
};

/** The backup file a successful db:backup printed. */
function writtenFile(stdout: string): string {
  const file = /: (\S+\.(?:pglite\.tar\.gz|pgdump)) \(/.exec(stdout)?.[1];
  if (!file) throw new Error(`no backup file in: ${stdout}`);
  return file;
}

describe.each(testDatabases)("backups on $name", (database) => {
  const place = scratch(`backups-${database.name}`);
  const backupsDir = path.join(place.root, "backups");
  const targets: Target[] = [];
  let site: Target;
  let server: TestServer;
  const db = () => server.portico.runtime.database.db;
  const target = async () => {
    const t = await emptyTarget(database, place.folder("target"));
    targets.push(t);
    return t;
  };
  const kindExtension = database.name === "pglite" ? "pglite\\.tar\\.gz" : "pgdump";

  beforeAll(async () => {
    site = await target();
    server = await startTestServer(site.asTestDatabase(), SERVER_ENV);
  });
  afterAll(async () => {
    await server?.close();
    for (const t of targets) await t.drop().catch(() => {});
    place.remove();
  });

  it("backs up a running site, restores it into an empty target, and the restored site serves the same", async () => {
    // A client with orders (paid and pending), their invoices, a message with a file, and a session.
    const ada = await signedInClient(server.url, db(), "Ada Backup");
    const paid = await makeOrders(db(), ada.userId, {
      count: 2,
      status: "paid",
      serviceSlug: "per-incident-support",
    });
    const [pending] = await makeOrders(db(), ada.userId, { status: "pending" });
    const orderPath = (o: FixtureOrder) => `/client/orders/${o.orderId}`;
    const form = new FormData();
    form.set("intent", "message");
    form.set("body", "Here is the report from the server room");
    form.append("files", new File([new Uint8Array(SAMPLE_PDF)], "report.pdf", { type: "application/pdf" }));
    expect((await ada.session.postMultipart(orderPath(paid[0]!), form)).status).toBe(200);
    const [file] = await db()
      .select({ id: messageAttachments.id })
      .from(messageAttachments)
      .innerJoin(orderMessages, eq(orderMessages.id, messageAttachments.messageId))
      .where(eq(orderMessages.orderId, paid[0]!.orderId));
    const filePath = `${orderPath(paid[0]!)}/files/${file!.id}`;
    const invoicePdf = (o: FixtureOrder) => `/invoice/${o.invoiceId}/pdf`;

    const before = {
      orders: await pageOf(await ada.session.get("/client/orders")),
      order: await pageOf(await ada.session.get(orderPath(paid[0]!))),
      pdf: await bytes(await ada.session.get(invoicePdf(paid[0]!))),
      pendingPdf: await bytes(await ada.session.get(invoicePdf(pending!))),
      file: await bytes(await ada.session.get(filePath)),
    };
    // The same invoice is the same file at every download (its PDF is dated the invoice's day).
    expect(await bytes(await ada.session.get(invoicePdf(paid[0]!)))).toEqual(before.pdf);

    // Backed up while the site runs: on PGlite through the server that holds the folder.
    const backup = await runDbScript("db-backup", ["--out", `${backupsDir}/`], site.env);
    expect(backup.stderr).toBe("");
    expect(backup.code).toBe(0);
    expect(backup.stdout).toContain(
      database.name === "pglite" ? "through the running server (pid " : "with pg_dump",
    );
    const backupFile = writtenFile(backup.stdout);
    expect(path.basename(backupFile)).toMatch(
      new RegExp(`^portico-\\d{4}-\\d\\d-\\d\\dT\\d\\d-\\d\\d-\\d\\dZ-${newestTag}\\.${kindExtension}$`),
    );
    // Only the finished file is left (no partial one).
    expect(readdirSync(backupsDir)).toEqual([path.basename(backupFile)]);

    const restoredTarget = await target();
    const restore = await runDbScript("db-restore", [backupFile], restoredTarget.env);
    expect(restore.stderr).toBe("");
    expect(restore.code).toBe(0);
    expect(restore.stdout).toContain(`(schema version ${newestTag})`);
    expect(restore.stdout).toContain("no migration was needed");

    const restored = await startTestServer(restoredTarget.asTestDatabase(), SERVER_ENV);
    try {
      // The session signed in before the backup goes on working on the restored site.
      expect(await pageOf(await getWith(restored.url, ada.session, "/client/orders"))).toBe(before.orders);
      expect(await pageOf(await getWith(restored.url, ada.session, orderPath(paid[0]!)))).toBe(before.order);
      expect(await bytes(await getWith(restored.url, ada.session, invoicePdf(paid[0]!)))).toEqual(before.pdf);
      expect(await bytes(await getWith(restored.url, ada.session, invoicePdf(pending!)))).toEqual(
        before.pendingPdf,
      );
      expect(await bytes(await getWith(restored.url, ada.session, filePath))).toEqual(before.file);
      expect(before.file).toEqual(SAMPLE_PDF);
      // The same password signs in, and the client sees the same orders.
      const again = new Session(restored.url, "198.51.100.77");
      expect(location(await again.post("/client/login", { email: ada.email, password: PASSWORD }))).toBe(
        "/client/dashboard",
      );
      const orders = await pageOf(await again.get("/client/orders"));
      for (const o of [...paid, pending!]) expect(orders).toContain(o.orderId);
    } finally {
      await restored.close();
    }

    // The restored target is no longer empty: refused without --force, replaced with it.
    const refused = await runDbScript("db-restore", [backupFile], restoredTarget.env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^db:restore refused: .* is not empty.*: restoring would replace/);
    expect(refused.stderr).toContain("Add --force");
    expect(refused.stderr).toContain("Nothing was changed.");
    // The running site's own data is refused too (on PGlite: its server holds the folder).
    const busy = await runDbScript("db-restore", [backupFile], site.env);
    expect(busy.code).toBe(1);
    expect(busy.stderr).toMatch(
      database.name === "pglite" ? /a server \(pid \d+\) is running on .*: stop it first/ : /is not empty/,
    );
    const forced = await runDbScript("db-restore", [backupFile, "--force"], restoredTarget.env);
    expect(forced.stderr).toBe("");
    expect(forced.code).toBe(0);
    const check = await restoredTarget.open();
    try {
      const [n] = await queryRows<{ n: number }>(
        check.db,
        sql`select count(*)::int as n from orders where client_id = ${ada.userId}`,
      );
      expect(n!.n).toBe(3);
    } finally {
      await check.close();
    }
  }, 90_000);

  it("restores a backup taken during a burst of checkouts to a consistent state", async () => {
    const buyers = await Promise.all(
      [1, 2, 3, 4, 5].map((i) => signedInClient(server.url, db(), `Burst Buyer ${i}`)),
    );
    const buy = async (who: { session: Session }) => {
      const page = await who.session.get("/client/purchase/ssl-setup");
      const checkoutToken = checkoutTokenIn(await page.text());
      const res = await who.session.post("/client/purchase/ssl-setup", { checkoutToken, currency: "USD" });
      expect(res.status).toBe(302);
    };
    const wave = () => Promise.all(buyers.map(buy));
    const count = async (handle: { db: DatabaseHandle["db"] }) =>
      (await queryRows<{ n: number }>(handle.db, sql`select count(*)::int as n from orders`))[0]!.n;

    // One wave is committed before the backup starts; the waves go on until it has finished.
    await wave();
    const committedBefore = await count({ db: db() });
    let finished = false;
    const backup = runDbScript("db-backup", ["--out", `${backupsDir}/`], site.env).finally(() => {
      finished = true;
    });
    let waves = 1;
    // At most 25 checkouts per buyer: under the hourly limit of 30.
    while (!finished && waves < 25) {
      await wave();
      waves++;
    }
    const result = await backup;
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);

    const restoredTarget = await target();
    const restore = await runDbScript("db-restore", [writtenFile(result.stdout)], restoredTarget.env);
    expect(restore.code).toBe(0);
    const restored = await restoredTarget.open();
    try {
      expect(await count(restored)).toBeGreaterThanOrEqual(committedBefore);
      expect(await count(restored)).toBeLessThanOrEqual(await count({ db: db() }));
      const orphans = await queryRows<{ id: string }>(
        restored.db,
        sql`select o.id from orders o where not exists (select 1 from invoices i where i.order_id = o.id)`,
      );
      expect(orphans).toEqual([]);
      const seqs = (
        await queryRows<{ seq: number }>(
          restored.db,
          sql`select invoice_seq as seq from invoices where invoice_year = ${YEAR} order by invoice_seq`,
        )
      ).map((r) => Number(r.seq));
      const [counter] = await queryRows<{ last: number }>(
        restored.db,
        sql`select last_seq as last from invoice_counters where year = ${YEAR}`,
      );
      // Gap-free from 1, and the counter where the last invoice left it.
      expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1));
      expect(Number(counter!.last)).toBe(seqs.length);
    } finally {
      await restored.close();
    }
  }, 90_000);

  it("applies the newer migrations to an older backup, and refuses a backup newer than the code", async () => {
    // An older database: migrated up to the migration before the newest, with a client in it.
    const folder = path.join(place.root, "older-migrations");
    cpSync(MIGRATIONS_FOLDER, folder, { recursive: true });
    const journalFile = path.join(folder, "meta", "_journal.json");
    const full = JSON.parse(readFileSync(journalFile, "utf8")) as { entries: unknown[] };
    writeFileSync(journalFile, JSON.stringify({ ...full, entries: full.entries.slice(0, -1) }));
    const older = await target();
    let handle = await older.open();
    try {
      if (handle.kind === "pglite") {
        await migratePglite(handle.db as unknown as PgliteDatabase, { migrationsFolder: folder });
      } else {
        await migrateNodePg(handle.db as unknown as NodePgDatabase, { migrationsFolder: folder });
      }
      await handle.db
        .insert(user)
        .values({ id: "older-1", name: "Old Timer", email: "old.timer@example.com" });
    } finally {
      await handle.close();
    }
    const backup = await runDbScript("db-backup", ["--out", `${backupsDir}/`], older.env);
    expect(backup.stderr).toBe("");
    expect(backup.code).toBe(0);
    if (database.name === "pglite")
      expect(backup.stdout).toContain("opened directly (no server was running)");
    const olderFile = writtenFile(backup.stdout);
    expect(path.basename(olderFile)).toMatch(new RegExp(`-${previousTag}\\.${kindExtension}$`));

    const into = await target();
    const restore = await runDbScript("db-restore", [olderFile], into.env);
    expect(restore.stderr).toBe("");
    expect(restore.code).toBe(0);
    expect(restore.stdout).toContain(`(schema version ${previousTag})`);
    expect(restore.stdout).toContain(`Applied the newer migrations: ${newestTag}.`);
    handle = await into.open();
    try {
      expect(await appliedMigrations(handle.db)).toEqual(journal.map((e) => e.when));
      const [row] = await handle.db.select({ email: user.email }).from(user).where(eq(user.id, "older-1"));
      expect(row?.email).toBe("old.timer@example.com");
    } finally {
      await handle.close();
    }

    // A newer database: one migration past this code's newest (what a later version of Portico wrote).
    const newer = await target();
    const future = journal.at(-1)!.when + 1000;
    handle = await newer.open();
    try {
      await migrateDatabase(handle);
      await handle.db.execute(
        sql`insert into drizzle.__drizzle_migrations (hash, created_at) values ('from-a-later-version', ${future})`,
      );
    } finally {
      await handle.close();
    }
    const newerBackup = await runDbScript("db-backup", ["--out", `${backupsDir}/`], newer.env);
    expect(newerBackup.code).toBe(0);
    const newerFile = writtenFile(newerBackup.stdout);
    expect(path.basename(newerFile)).toContain(`-unknown-${future}.`);
    const empty = await target();
    const refused = await runDbScript("db-restore", [newerFile], empty.env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      `holds schema version unknown-${future}, newer than this code's migrations (the newest is ${newestTag})`,
    );
    expect(refused.stderr).toContain("Nothing was changed.");
    // The target is as empty as it was.
    if (database.name === "pglite") {
      expect(existsSync(empty.env.PGLITE_DIR!)).toBe(false);
      expect(readdirSync(path.dirname(empty.env.PGLITE_DIR!))).toEqual([]);
    } else {
      handle = await empty.open();
      try {
        expect(await appliedMigrations(handle.db)).toEqual([]);
      } finally {
        await handle.close();
      }
    }
  }, 90_000);

  it("refuses what is not a backup, and a backup of the other kind of database", async () => {
    const notBackup = path.join(place.root, "notes.txt");
    writeFileSync(notBackup, "-- not a backup\n");
    const into = await target();
    const refused = await runDbScript("db-restore", [notBackup], into.env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("is not a Portico backup");
    const other = path.join(place.root, database.name === "pglite" ? "x.pgdump" : "x.pglite.tar.gz");
    writeFileSync(
      other,
      database.name === "pglite" ? "PGDMP\u0001\u000e\u0000" : Buffer.from([0x1f, 0x8b, 8, 0]),
    );
    const mismatch = await runDbScript("db-restore", [other], into.env);
    expect(mismatch.code).toBe(1);
    expect(mismatch.stderr).toContain(
      database.name === "pglite"
        ? "is a pg_dump of PostgreSQL, and DATABASE_URL is not set"
        : "is a backup of the embedded database (PGlite)",
    );
    expect((await runDbScript("db-restore", [], into.env)).code).toBe(2);
  });
});

// No PostgreSQL server is needed: the tool is looked for before anything connects.
describe("backups on PostgreSQL without the client tools", () => {
  it("says how to install pg_dump and pg_restore when they are missing", async () => {
    const place = scratch("no-pg-tools");
    try {
      const env = { DATABASE_URL: "postgres://portico@127.0.0.1:9/absent", PATH: "/nonexistent" };
      const backup = await runDbScript("db-backup", ["--out", `${place.root}/`], env);
      expect(backup.code).toBe(3);
      expect(backup.stderr).toContain("db:backup failed: pg_dump was not found on PATH");
      expect(backup.stderr).toContain("apt-get install postgresql-client");
      const dump = path.join(place.root, "x.pgdump");
      writeFileSync(dump, "PGDMP\u0001\u000e\u0000");
      const restore = await runDbScript("db-restore", [dump], env);
      expect(restore.code).toBe(3);
      expect(restore.stderr).toContain("db:restore failed: pg_restore was not found on PATH");
      expect(readdirSync(place.root)).toEqual(["x.pgdump"]);
    } finally {
      place.remove();
    }
  });
});
