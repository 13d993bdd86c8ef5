/**
 * kill -9 in the middle of a burst (issue 15, item 4): the production server (`node server.js`) takes
 * contact messages, checkouts and the provider's webhooks at once and is killed without warning; it is
 * started again on the same data (the PGlite folder must reopen). Then every request that got a 2xx
 * left its effect exactly once, checkouts and webhooks retried after the crash are applied once, and
 * the outbox delivers every queued email, none lost and none twice (by Message-ID), to a real SMTP
 * server on loopback.
 */
import type { ParsedMail } from "mailparser";
import { describe, expect, it } from "vitest";
import type { Session } from "../support/browserless";
import { location } from "../support/browserless";
import { type FaultRig, faultRig } from "../support/fault-rig";
import {
  type CheckoutSession,
  type ContactSent,
  checkoutToken,
  type DurableDatabase,
  faultDatabases,
  paidEventId,
  phases,
  postContact,
  readCheckout,
  registerClient,
  report,
  sendPaidWebhook,
  submitCheckout,
} from "../support/faults";
import { errorLines, type ServerProcess } from "../support/server-process";
import { eventually, type TestSmtp } from "../support/smtp";

/** Answers before the kill: enough that the burst is well under way (contacts, checkouts, webhooks). */
const KILL_AFTER = { contacts: 20, checkouts: 8, webhooks: 4 };
const CONTACT_WORKERS = 3;
const CLIENTS = 4;

interface Attempt {
  status: number; // 0: no answer (the connection died with the server)
}
interface ContactAttempt extends Attempt {
  sent: ContactSent;
}
interface CheckoutAttempt extends Attempt {
  client: number;
  token: string;
  checkout: CheckoutSession | null;
}
interface WebhookAttempt extends Attempt {
  orderId: string;
  duplicate: boolean | null;
}

const outboxId = (mail: ParsedMail) => String(mail.headers.get("x-portico-outbox-id") ?? "");

describe.each(faultDatabases)("kill -9 in the middle of a burst on %s", (kind) => {
  const rig = faultRig();

  it("keeps every answered request's effect exactly once and sends every queued email once", async () => {
    const time = phases();
    const { db, smtp, env } = await rig.databaseAndMail(kind);
    const first = await rig.server(env, "first process");
    time.mark("start");

    const clients: Array<{ session: Session; email: string }> = [];
    for (let i = 0; i < CLIENTS; i++)
      clients.push(await registerClient(first.url, smtp, `${kind}.crash.${i}`));

    time.mark("sign-ups");
    // The burst: workers send until the server is gone; the kill comes after KILL_AFTER_ANSWERS answers.
    const contacts: ContactAttempt[] = [];
    const checkouts: CheckoutAttempt[] = [];
    const webhooks: WebhookAttempt[] = [];
    let inFlight = 0;
    let inFlightAtKill = -1;
    let killed = false;
    let killing: Promise<void> | null = null;
    const answered = () => {
      const ok = (list: Attempt[]) => list.filter((a) => a.status > 0).length;
      const enough =
        ok(contacts) >= KILL_AFTER.contacts &&
        ok(checkouts) >= KILL_AFTER.checkouts &&
        ok(webhooks) >= KILL_AFTER.webhooks;
      if (!killing && enough) {
        inFlightAtKill = inFlight;
        killed = true;
        killing = first.crash();
      }
    };
    const track = async (request: () => Promise<Response>): Promise<Response | null> => {
      inFlight++;
      try {
        const res = await request();
        return res;
      } catch {
        return null;
      } finally {
        inFlight--;
      }
    };

    let tag = 0;
    const contactWorker = async () => {
      while (!killed) {
        const { sent, response } = postContact(first.url, `${kind}.burst.${++tag}`);
        const res = await track(() => response);
        const status = res?.status ?? 0;
        if (res) await res.arrayBuffer().catch(() => {});
        contacts.push({ sent, status });
        answered();
      }
    };
    const checkoutWorker = async (client: number) => {
      const { session } = clients[client]!;
      while (!killed) {
        let token: string;
        inFlight++;
        try {
          token = await checkoutToken(session);
        } catch {
          break; // the server died while the page loaded: nothing was submitted
        } finally {
          inFlight--;
        }
        const res = await track(() => submitCheckout(session, token));
        const status = res?.status ?? 0;
        const checkout = res?.status === 302 ? readCheckout(location(res)) : null;
        checkouts.push({ client, token, status, checkout });
        answered();
        if (!checkout || killed) continue;
        const hook = await track(() => sendPaidWebhook(first.url, checkout));
        const body = hook ? ((await hook.json().catch(() => ({}))) as { duplicate?: boolean }) : {};
        webhooks.push({
          orderId: checkout.orderId,
          status: hook?.status ?? 0,
          duplicate: body.duplicate ?? null,
        });
        answered();
      }
    };
    await Promise.all([
      ...Array.from({ length: CONTACT_WORKERS }, contactWorker),
      ...clients.map((_, i) => checkoutWorker(i)),
    ]);
    await killing;
    time.mark("burst");
    expect(first.alive()).toBe(false);
    // Requests were under way when the process died.
    expect(inFlightAtKill).toBeGreaterThan(0);
    const all = [...contacts, ...checkouts, ...webhooks];
    expect(all.filter((a) => a.status >= 500)).toEqual([]);
    expect(all.filter((a) => a.status !== 0 && a.status !== 200 && a.status !== 302)).toEqual([]);

    // Start again on the same data, at the same address (the clients' sessions carry on).
    const second = await rig.server({ ...env, PORT: new URL(first.url).port }, "restarted process");
    time.mark("restart");

    // Checkouts that got no answer are submitted again with their token: one order per token.
    for (const attempt of checkouts.filter((c) => c.status === 0)) {
      const res = await submitCheckout(clients[attempt.client]!.session, attempt.token);
      expect(res.status).toBe(302);
      checkouts.push({ ...attempt, status: 302, checkout: readCheckout(location(res)) });
    }
    // Every order's webhook is delivered (again): the provider retries until it gets a 2xx.
    const ordered = new Map<string, CheckoutSession>();
    for (const c of checkouts) if (c.checkout) ordered.set(c.checkout.orderId, c.checkout);
    const appliedBefore = new Set(webhooks.filter((w) => w.status === 200).map((w) => w.orderId));
    for (const checkout of ordered.values()) {
      const res = await sendPaidWebhook(second.url, checkout);
      expect(res.status).toBe(200);
      const body = (await res.json()) as { duplicate: boolean; outcome: string | null };
      // Answered before the crash: the retry is recognised as a repeat and changes nothing.
      if (appliedBefore.has(checkout.orderId)) expect(body).toMatchObject({ duplicate: true });
      webhooks.push({ orderId: checkout.orderId, status: res.status, duplicate: body.duplicate });
    }
    // And once more: a repeat after the crash is a repeat too.
    const [oneOrder] = ordered.values();
    expect(await (await sendPaidWebhook(second.url, oneOrder!)).json()).toMatchObject({ duplicate: true });

    time.mark("retries");
    // The outbox empties: every queued email sent (on PGlite, read the folder between runs).
    const outbox = await settledOutbox(kind, { db, smtp, env, rig }, second);
    time.mark("outbox settled");
    expect(errorLines(second)).toEqual([]);

    // Contact messages: each answered one stored once, with its two emails; none stored twice.
    const messages = await db.query<{ id: string; email: string; subject: string }>(
      "select id, email, subject from contact_messages",
    );
    const stored = (c: ContactSent) => messages.filter((m) => m.email === c.email && m.subject === c.subject);
    for (const c of contacts) {
      if (c.status === 200) expect(stored(c.sent), c.sent.subject).toHaveLength(1);
      else expect(stored(c.sent).length, c.sent.subject).toBeLessThanOrEqual(1);
    }
    for (const m of messages) {
      const mails = outbox.filter((o) => o.to_address === m.email && o.kind === "contact-confirmation");
      expect(mails, m.email).toHaveLength(1);
      const notes = outbox.filter(
        (o) => o.kind === "contact-notification" && (o.reply_to ?? "").includes(m.email),
      );
      expect(notes, m.email).toHaveLength(1);
    }

    // Orders: one per token, the one its answers named; each with one invoice; all paid once.
    const orders = await db.query<{ id: string; checkout_token: string; status: string }>(
      "select id, checkout_token, status from orders",
    );
    const tokens = new Set(checkouts.filter((c) => c.status === 302).map((c) => c.token));
    for (const token of tokens) {
      const rows = orders.filter((o) => o.checkout_token === token);
      expect(rows, token).toHaveLength(1);
      const named = new Set(
        checkouts.filter((c) => c.token === token && c.checkout).map((c) => c.checkout!.orderId),
      );
      expect([...named]).toEqual([rows[0]!.id]);
    }
    expect(orders.filter((o) => !ordered.has(o.id))).toEqual([]);
    expect(orders.every((o) => o.status === "paid")).toBe(true);
    const invoices = await db.query<{ order_id: string; status: string; invoice_seq: number }>(
      "select order_id, status, invoice_seq from invoices order by invoice_seq",
    );
    expect(invoices.map((i) => i.order_id).sort()).toEqual(orders.map((o) => o.id).sort());
    expect(invoices.every((i) => i.status === "paid")).toBe(true);
    // Gap-free numbering survives the crash (a killed transaction took its number back).
    expect(invoices.map((i) => i.invoice_seq)).toEqual(invoices.map((_, i) => i + 1));
    const events = await db.query<{ event_id: string; outcome: string }>(
      "select event_id, outcome from payment_events",
    );
    for (const order of orders) {
      expect(events.filter((e) => e.event_id === paidEventId(order.id))).toEqual([
        { event_id: paidEventId(order.id), outcome: "applied" },
      ]);
    }
    const receipts = outbox.filter((o) => o.kind === "payment-receipt");
    expect(receipts).toHaveLength(orders.length);
    const paidNotes = await db.query<{ n: number }>(
      "select count(*)::int as n from notifications where title = 'Payment Received'",
    );
    expect(paidNotes[0]!.n).toBe(orders.length);

    // Mail: every row delivered, nothing delivered that was not queued, one Message-ID per row. A row
    // the killed process had handed to SMTP but not yet marked sent is sent again after its lease
    // (ADR 0300): the same Message-ID, so a mail client shows it once; the suite reports how many.
    const delivered = new Map<string, ParsedMail[]>();
    for (const mail of smtp.received) {
      const id = outboxId(mail);
      delivered.set(id, [...(delivered.get(id) ?? []), mail]);
    }
    expect([...delivered.keys()].sort()).toEqual(outbox.map((o) => o.id).sort());
    let resent = 0;
    for (const row of outbox) {
      const copies = delivered.get(row.id)!;
      expect(new Set(copies.map((m) => m.messageId))).toEqual(new Set([row.message_id]));
      if (copies.length > 1) {
        resent++;
        expect(copies.length).toBe(2);
        expect(row.attempts).toBeGreaterThanOrEqual(2);
      }
    }
    report(
      `kill -9 on ${kind}: ${all.length} requests in the burst, ${inFlightAtKill} in flight at the kill, ` +
        `${contacts.filter((c) => c.status === 200).length} contact messages and ` +
        `${checkouts.filter((c) => c.status === 302).length} checkouts answered; ${orders.length} orders, ` +
        `${outbox.length} emails, ${resent} re-sent with the same Message-ID after the crash; ${time}`,
    );
  });
});

interface OutboxRow {
  id: string;
  kind: string;
  to_address: string;
  reply_to: string | null;
  status: string;
  attempts: number;
  message_id: string | null;
}

/**
 * Waits until no email is left to send and returns the outbox. PostgreSQL is read while the server
 * runs. A PGlite folder is read between runs: stop the server, read what is still due, start it again
 * and wait for the SMTP server to receive exactly those, until nothing is due.
 */
async function settledOutbox(
  kind: "pglite" | "postgres",
  { db, smtp, env, rig }: { db: DurableDatabase; smtp: TestSmtp; env: Record<string, string>; rig: FaultRig },
  running: ServerProcess,
): Promise<OutboxRow[]> {
  let current = running;
  const read = () =>
    db.query<OutboxRow>(
      "select id, kind, to_address, reply_to, status, attempts, message_id from outbox_emails order by created_at",
    );
  if (kind === "postgres") {
    await eventually(async () => (await read()).every((r) => r.status === "sent"), 60_000);
    return read();
  }
  for (let round = 0; round < 5; round++) {
    expect(await current.stop()).toBe(0);
    const rows = await read();
    const due = rows.filter((r) => r.status !== "sent");
    if (due.length === 0) return rows;
    expect(due.every((r) => r.status === "pending" || r.status === "sending")).toBe(true);
    await db.release();
    current = await rig.server(env, "process sending the rest");
    await eventually(() => due.every((r) => smtp.received.some((m) => outboxId(m) === r.id)), 60_000);
  }
  throw new Error("the outbox did not settle in five runs");
}
