/**
 * The payment sweep in real server processes (ADR 0503): production servers (`node server.js`) sweeping
 * every 200 ms with no waiting period (`PAYMENT_SWEEP_PENDING_AFTER_MS=0`), two processes on one
 * PostgreSQL database when TEST_DATABASE_URL is set (as CI does), else one process on a PGlite folder
 * (which only one process can open). A client pays at the sandbox, whose webhook is black-holed (a port
 * nothing listens on): the sandbox's page answers 502, the payment stands at the sandbox, and the sweep,
 * whichever process holds the lease, pays the order and its invoice exactly once: one payment event
 * (the checkout's), one receipt, one "paid" notice, although every process keeps sweeping
 * before and after. A second order left unpaid keeps the sweeps asking (and logging their runs).
 */
import { describe, expect, it } from "vitest";
import { location } from "../support/browserless";
import { faultRig } from "../support/fault-rig";
import { checkoutToken, readCheckout, registerClient, submitCheckout } from "../support/faults";
import { errorLines, type ServerProcess } from "../support/server-process";
import { eventually, unusedPort } from "../support/smtp";

/** Two processes on PostgreSQL when TEST_DATABASE_URL is set, else one on PGlite (as load.test.ts). */
const sweepDatabases: Array<"pglite" | "postgres"> = process.env.TEST_DATABASE_URL
  ? ["postgres"]
  : ["pglite"];

/** Generous: the processes sweep every 200 ms; the deadline only bounds a broken run. */
const DEADLINE_MS = 60_000;

interface SweepRun {
  ran: boolean;
  checked: number;
  paid: number;
}

/** The runs of a process that asked the provider about at least one checkout (the runtime logs those). */
const sweepRuns = (server: ServerProcess) =>
  server.logs().filter((l) => l.msg === "payment sweep ran") as unknown as SweepRun[];

describe.each(sweepDatabases)("the payment sweep of every process on %s", (kind) => {
  const rig = faultRig();

  it("pays a checkout whose webhook was lost exactly once, though every process sweeps", async () => {
    const blackHole = await unusedPort();
    const { db, smtp, env } = await rig.databaseAndMail(kind, {
      SANDBOX_WEBHOOK_URL: `http://127.0.0.1:${blackHole}/api/payments/sandbox/webhook`,
      PAYMENT_SWEEP_INTERVAL_MS: "200",
      PAYMENT_SWEEP_PENDING_AFTER_MS: "0",
    });
    const a = await rig.server(env, "process A");
    const servers = kind === "postgres" ? [a, await rig.server(env, "process B")] : [a];
    const { session, email } = await registerClient(a.url, smtp, `${kind}.sweep`);

    // Two orders: one the client pays, one left open, which the sweeps keep asking about.
    const paid = await submitCheckout(session, await checkoutToken(session));
    expect(paid.status).toBe(302);
    const open = await submitCheckout(session, await checkoutToken(session));
    expect(open.status).toBe(302);
    const orderId = readCheckout(location(paid)).orderId;
    const openOrderId = readCheckout(location(open)).orderId;

    // Every process sweeps the pending checkouts (the sandbox answers "open" for now).
    await eventually(() => servers.every((s) => sweepRuns(s).length > 0), DEADLINE_MS);
    expect(servers.flatMap(sweepRuns).every((r) => r.paid === 0)).toBe(true);

    // Pay at the sandbox: its webhook goes nowhere, so the page says it could not complete (as before).
    const token = new URL(location(paid), a.url).searchParams.get("session")!;
    const pay = await session.post("/payments/sandbox/checkout", { session: token, intent: "pay" });
    expect(pay.status).toBe(502);
    await pay.arrayBuffer();

    // A sweep finds the payment at the sandbox and applies it. PostgreSQL is read as it happens; the
    // PGlite folder belongs to the running process, whose log says when the payment was committed.
    await eventually(async () => {
      if (kind === "postgres") return (await orderState(orderId)).order_status === "paid";
      return a.logs().some((l) => l.msg === "payment webhook processed" && l.orderId === orderId);
    }, DEADLINE_MS);
    // Every process sweeps again after that: each logs two more runs (the open order keeps them asking),
    // so a run of each began after the payment was applied.
    const seen = servers.map((s) => sweepRuns(s).length);
    await eventually(() => servers.every((s, i) => sweepRuns(s).length >= seen[i]! + 2), DEADLINE_MS);
    // The receipt arrives at the SMTP catcher.
    const receipts = () => smtp.received.filter((m) => m.subject?.startsWith("Payment received: invoice "));
    await eventually(() => receipts().length > 0, DEADLINE_MS);

    // The processes stop (in order, exit 0); nothing can change after this, and PGlite can be read.
    for (const s of servers) expect(await s.stop()).toBe(0);

    const [{ reference }] = (await db.query<{ reference: string }>(
      "select provider_reference as reference from orders where id = $1",
      [orderId],
    )) as [{ reference: string }];
    expect(await orderState(orderId)).toEqual({
      order_status: "paid",
      invoice_status: "paid",
      events: [{ event_id: `checkout:${reference}:paid`, outcome: "applied" }],
    });
    // One receipt (queued and delivered) and the payment's one notice for the client (ADR 0515).
    expect(await clientState()).toEqual({
      receipts: [{ status: "sent" }],
      notifications: ["Payment Received"],
    });
    expect(receipts()).toHaveLength(1);
    // The open order is still pending, and nothing was recorded for it.
    expect(await orderState(openOrderId)).toEqual({
      order_status: "pending",
      invoice_status: "sent",
      events: [],
    });

    // Every process swept throughout; in all, their runs paid one checkout.
    const runs = servers.flatMap(sweepRuns);
    expect(runs.every((r) => r.ran && r.checked > 0)).toBe(true);
    expect(runs.reduce((sum, r) => sum + r.paid, 0)).toBe(1);
    // Nothing went wrong but the 502 of Pay (on A, where the client is), which the request log records.
    expect(
      errorLines(a).map((l) => [
        l.msg,
        (l.req as { url?: string })?.url,
        (l.res as { statusCode?: number })?.statusCode,
      ]),
    ).toEqual([["request errored", "/payments/sandbox/checkout", 502]]);
    for (const s of servers.slice(1)) expect(errorLines(s)).toEqual([]);

    /** The order, its invoice and the payment events recorded for it. */
    async function orderState(id: string) {
      const [row] = await db.query<{ order_status: string; invoice_status: string }>(
        `select o.status as order_status, i.status as invoice_status
         from orders o join invoices i on i.order_id = o.id where o.id = $1`,
        [id],
      );
      const events = await db.query<{ event_id: string; outcome: string }>(
        "select event_id, outcome from payment_events where order_id = $1 order by event_id",
        [id],
      );
      return { ...row!, events };
    }

    /** The client's receipts in the outbox and their payment notifications (title, or title: message). */
    async function clientState() {
      const receipts = await db.query<{ status: string }>(
        "select status from outbox_emails where kind = 'payment-receipt' and to_address = $1",
        [email],
      );
      const notes = await db.query<{ title: string; message: string }>(
        `select n.title, n.message from notifications n join clients c on c.id = n.user_id
         where c.email = $1 and n.title in ('Order Update', 'Payment Received', 'Payment Confirmed')
         order by n.title, n.message`,
        [email],
      );
      return {
        receipts,
        notifications: notes.map((n) => (n.title === "Order Update" ? `${n.title}: ${n.message}` : n.title)),
      };
    }
  });
});
