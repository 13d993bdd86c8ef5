/**
 * SMTP down for a while (issue 15, item 4): mail queued while the relay does not answer waits in the
 * outbox, is retried with a growing delay, and goes out once the relay is back, each email exactly once.
 */
import { afterAll, describe, expect, it } from "vitest";
import {
  type ContactSent,
  type DurableDatabase,
  durableDatabase,
  faultDatabases,
  postContact,
  serverEnv,
} from "../support/faults";
import { launchServer, type ServerProcess } from "../support/server-process";
import { eventually, startTestSmtp, type TestSmtp, unusedPort } from "../support/smtp";

const MESSAGES = 3;

describe.each(faultDatabases)("SMTP down for a while on %s", (kind) => {
  let db: DurableDatabase | null = null;
  let smtp: TestSmtp | null = null;
  let server: ServerProcess | null = null;
  afterAll(async () => {
    await server?.crash();
    await smtp?.close();
    await db?.drop();
  });

  it("keeps the mail queued, retries it, and sends each email once when SMTP is back", async () => {
    db = await durableDatabase(kind);
    const port = await unusedPort();
    server = await launchServer({ ...db.env, ...serverEnv(`smtp://127.0.0.1:${port}`) }, "server");
    const running = server;

    const sent: ContactSent[] = [];
    for (let i = 0; i < MESSAGES; i++) {
      const { sent: one, response } = postContact(running.url, `${kind}.smtp.${i}`);
      const res = await response;
      expect(res.status).toBe(200);
      sent.push(one);
    }

    // Each of the emails (a notification and a confirmation per message) fails at least twice: the
    // worker keeps retrying while the relay is down.
    const failures = () =>
      running.logs().filter((l) => l.msg === "email attempt failed; will retry") as Array<{
        outboxId: string;
        attempts: number;
      }>;
    const failedIds = () => new Set(failures().map((f) => f.outboxId));
    await eventually(() => {
      const ids = failedIds();
      return (
        ids.size === MESSAGES * 2 &&
        [...ids].every((id) => failures().some((f) => f.outboxId === id && f.attempts >= 2))
      );
    }, 60_000);
    expect(running.logs().filter((l) => l.msg === "email delivered")).toEqual([]);

    // The relay comes back on the same port.
    smtp = await startTestSmtp(port);
    const relay = smtp;
    await eventually(() => relay.received.length >= MESSAGES * 2, 60_000);
    // A graceful stop waits for a send in progress; after it nothing more can arrive.
    expect(await running.stop()).toBe(0);

    const ids = relay.received.map((m) => String(m.headers.get("x-portico-outbox-id")));
    expect(ids).toHaveLength(MESSAGES * 2);
    expect(new Set(ids).size).toBe(MESSAGES * 2);
    expect([...new Set(ids)].sort()).toEqual([...failedIds()].sort());
    for (const one of sent) {
      const confirmations = relay.received.filter((m) => m.to && JSON.stringify(m.to).includes(one.email));
      expect(confirmations, one.email).toHaveLength(1);
      const notifications = relay.received.filter((m) => JSON.stringify(m.replyTo ?? "").includes(one.email));
      expect(notifications, one.email).toHaveLength(1);
    }

    const rows = await db.query<{ id: string; status: string; attempts: number }>(
      "select id, status, attempts from outbox_emails",
    );
    expect(rows).toHaveLength(MESSAGES * 2);
    for (const row of rows) {
      expect(row.status).toBe("sent");
      // Every failed attempt, then the one that went through.
      const failed = failures().filter((f) => f.outboxId === row.id).length;
      expect(row.attempts).toBe(failed + 1);
    }
  });
});
