/**
 * Load (issue 15, item 5): 200 simulated visitors and clients for 60 s of mixed traffic (public pages,
 * contact messages, sign-in, portal pages, checkouts, the provider's webhooks, event streams held open)
 * through a round-robin proxy in front of two production server processes sharing one PostgreSQL
 * (without one, on PGlite, which is one process by design: one process, for 30 s). Asserted: no 5xx
 * and no failed request, no lost or duplicated order (the database against what the clients were told),
 * every payment's live event delivered to its client's stream, also across processes, and each
 * process's memory stable. Throughput and latency are printed, never asserted.
 */
import { describe, expect, it } from "vitest";
import { location, Session } from "../support/browserless";
import { faultRig } from "../support/fault-rig";
import {
  type CheckoutSession,
  checkoutToken,
  nextIp,
  PASSWORD,
  percentile,
  postContact,
  readCheckout,
  registerClient,
  report,
  sendPaidWebhook,
  submitCheckout,
} from "../support/faults";
import { EventReader } from "../support/portal";
import { errorLines, type ServerProcess } from "../support/server-process";
import { eventually } from "../support/smtp";

/** The run's length; LOAD_SECONDS shortens it while working on the suite. */
const SECONDS = process.env.LOAD_SECONDS
  ? { postgres: Number(process.env.LOAD_SECONDS), pglite: Number(process.env.LOAD_SECONDS) }
  : { postgres: 60, pglite: 30 };
const VISITORS = 140;
const CLIENTS = 60;

/** Besides every page of the sitemap (read at the start). */
const MORE_PUBLIC_PAGES = ["/client/login", "/client/purchase/email-migration", "/sitemap.xml", "/rss.xml"];
const PORTAL_PAGES = ["/client/dashboard", "/client/orders", "/client/invoices", "/client/services"];

interface Sample {
  kind: string;
  status: number; // 0: the request failed without an answer
  ms: number;
  error?: string;
}

const pick = <T>(list: T[]): T => list[Math.floor(Math.random() * list.length)]!;
const pause = (min: number, max: number) =>
  new Promise((resolve) => setTimeout(resolve, min + Math.random() * (max - min)));
const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

/**
 * Where the load runs: two processes on PostgreSQL when TEST_DATABASE_URL is set (as CI does), else one
 * process on PGlite. Not both: the suite must stay within its time budget.
 */
const loadDatabases: Array<"pglite" | "postgres"> = process.env.TEST_DATABASE_URL ? ["postgres"] : ["pglite"];

/** The server's heap after a full collection (the `memory` test hook; the process runs with --expose-gc). */
async function heapAfterGc(server: ServerProcess): Promise<number> {
  const res = await fetch(new URL("/api/test-hooks/memory", server.url), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: "{}",
  });
  const body = (await res.json()) as { collected: boolean; heapUsed: number };
  if (res.status !== 200 || !body.collected)
    throw new Error(`memory hook: ${res.status} ${JSON.stringify(body)}`);
  return body.heapUsed;
}

describe.each(loadDatabases)("load: 200 visitors and clients on %s", (kind) => {
  const rig = faultRig();

  it("serves mixed traffic with no 5xx, no lost or duplicated order, live events across processes, stable memory", async () => {
    const durationMs = SECONDS[kind] * 1000;
    const { db, smtp, env } = await rig.databaseAndMail(kind, {
      MAIL_POLL_INTERVAL_MS: "1000",
      TEST_HOOKS: "true",
    });
    // --expose-gc: the memory check compares the heap after a full collection, not the resident size
    // (which grows with whatever V8 has not collected yet).
    const servers: ServerProcess[] = [await rig.server(env, "process A", ["--expose-gc"])];
    if (kind === "postgres") servers.push(await rig.server(env, "process B", ["--expose-gc"]));
    const proxy = await rig.roundRobin(servers);
    const readers: EventReader[] = [];
    const front = proxy.url;
    const sitemap = await (await fetch(new URL("/sitemap.xml", front))).text();
    const PUBLIC_PAGES = [
      ...[...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname),
      ...MORE_PUBLIC_PAGES,
    ];
    expect(PUBLIC_PAGES.length).toBeGreaterThan(15);

    // The clients sign up (through the emailed link) and sign in, a few at a time.
    const clients: Array<{ session: Session; email: string; stream: EventReader; backend: string }> = [];
    for (let i = 0; i < CLIENTS; i += 6) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(6, CLIENTS - i) }, (_, j) =>
          registerClient(front, smtp, `${kind}.load.${i + j}`),
        ),
      );
      for (const c of batch) {
        // Each holds its event stream open for the whole run (on whichever process the proxy chose).
        const res = await fetch(new URL("/api/events", front), {
          headers: { cookie: c.session.cookieHeader },
        });
        expect(res.status).toBe(200);
        const stream = new EventReader(res);
        readers.push(stream);
        rig.closeAtEnd(() => stream.close());
        await stream.until(() => stream.comments.includes("connected"), "the connected comment");
        clients.push({ ...c, stream, backend: res.headers.get("x-backend")! });
      }
    }
    const idle = servers.map((s) => s.rss());

    const samples: Sample[] = [];
    const timed = async (sampleKind: string, request: () => Promise<Response>): Promise<Response | null> => {
      const started = performance.now();
      try {
        const res = await request();
        samples.push({ kind: sampleKind, status: res.status, ms: performance.now() - started });
        return res;
      } catch (error) {
        samples.push({ kind: sampleKind, status: 0, ms: performance.now() - started, error: String(error) });
        return null;
      }
    };
    const drain = async (res: Response | null) => {
      await res?.arrayBuffer().catch(() => {});
    };

    const contacts: Array<{ email: string; subject: string; status: number }> = [];
    const checkouts: Array<{ client: number; token: string; checkout: CheckoutSession }> = [];
    const payments: Array<{ client: number; orderId: string; backend: string }> = [];
    const until = Date.now() + durationMs;

    const visitor = async (n: number) => {
      const ip = nextIp();
      let round = 0;
      while (Date.now() < until) {
        round++;
        if (Math.random() < 0.05) {
          const { sent, response } = postContact(front, `${kind}.load.v${n}.${round}`);
          const res = await timed("contact", () => response);
          contacts.push({ ...sent, status: res?.status ?? 0 });
          await drain(res);
        } else {
          const path = pick(PUBLIC_PAGES);
          await drain(
            await timed("page", () => fetch(new URL(path, front), { headers: { "x-forwarded-for": ip } })),
          );
        }
        await pause(500, 2000);
      }
    };

    const client = async (n: number) => {
      const { session, email } = clients[n]!;
      let lastSignIn = 0;
      while (Date.now() < until) {
        const roll = Math.random();
        if (roll < 0.4) {
          await drain(await timed("portal", () => session.get(pick(PORTAL_PAGES))));
        } else if (roll < 0.65) {
          let token: string;
          try {
            token = await checkoutToken(session);
          } catch (error) {
            samples.push({ kind: "purchase page", status: 0, ms: 0, error: String(error) });
            continue;
          }
          const res = await timed("checkout", () => submitCheckout(session, token));
          if (res?.status !== 302) continue;
          const checkout = readCheckout(location(res));
          checkouts.push({ client: n, token, checkout });
          await pause(50, 300);
          const hook = await timed("webhook", () => sendPaidWebhook(front, checkout));
          if (hook?.status === 200) {
            const body = (await hook.json()) as { outcome: string | null };
            if (body.outcome === "applied")
              payments.push({
                client: n,
                orderId: checkout.orderId,
                backend: hook.headers.get("x-backend")!,
              });
            // Providers deliver again now and then: a repeat changes nothing.
            if (Math.random() < 0.2) {
              const again = await timed("webhook", () => sendPaidWebhook(front, checkout));
              if (again?.status === 200) expect(await again.json()).toMatchObject({ duplicate: true });
            }
          }
        } else if (roll < 0.75 && Date.now() - lastSignIn > 15_000) {
          lastSignIn = Date.now();
          const fresh = new Session(front, nextIp());
          await drain(
            await timed("sign-in", () => fresh.post("/client/login", { email, password: PASSWORD })),
          );
          await drain(await timed("portal", () => fresh.get("/client/dashboard")));
        } else {
          await drain(
            await timed("page", () =>
              fetch(new URL(pick(PUBLIC_PAGES), front), { headers: { cookie: session.cookieHeader } }),
            ),
          );
        }
        await pause(500, 2000);
      }
    };

    // Memory: sampled through the run; "warm" is a quarter of the way in, after the caches filled.
    const rss: number[][] = [];
    const sampler = setInterval(() => rss.push(servers.map((s) => s.rss())), 2000);
    let warm: number[] = [];
    let warmHeap: Promise<number[]> = Promise.resolve([]);
    const warmTimer = setTimeout(() => {
      warm = servers.map((s) => s.rss());
      warmHeap = Promise.all(servers.map(heapAfterGc));
    }, durationMs / 4);
    const began = Date.now();
    await Promise.all([
      ...Array.from({ length: VISITORS }, (_, n) => visitor(n)),
      ...Array.from({ length: CLIENTS }, (_, n) => client(n)),
    ]);
    const elapsed = (Date.now() - began) / 1000;
    clearInterval(sampler);
    clearTimeout(warmTimer);
    const end = servers.map((s) => s.rss());
    const heapWarm = await warmHeap;
    const heapEnd = await Promise.all(servers.map(heapAfterGc));
    const peak = servers.map((_, i) => Math.max(...rss.map((r) => r[i]!), end[i]!));

    // No 5xx, no failed request, nothing the proxy could not forward.
    expect(proxy.failures.slice(0, 5)).toEqual([]);
    // Nothing logged as an error (a 503 from a timed-out database would be, with its cause).
    expect(servers.flatMap((s) => errorLines(s)).slice(0, 3)).toEqual([]);
    expect(samples.filter((s) => s.status === 0 || s.status >= 500).slice(0, 5)).toEqual([]);
    // Every answer is the expected one (no rate limit, no refused form).
    const expected: Record<string, number[]> = {
      page: [200],
      portal: [200],
      contact: [200],
      checkout: [302],
      webhook: [200],
      "sign-in": [302],
    };
    expect(samples.filter((s) => !expected[s.kind]!.includes(s.status)).slice(0, 5)).toEqual([]);
    for (const server of servers) expect(server.alive()).toBe(true);

    // Every applied payment reaches its client's held stream, on whichever process the stream is.
    await eventually(
      () =>
        payments.every((p) =>
          clients[p.client]!.stream.data().some(
            (d) => d.kind === "order" && d.entityId === p.orderId && d.status === "paid",
          ),
        ),
      30_000,
    );
    const crossProcess = payments.filter((p) => p.backend !== clients[p.client]!.backend).length;
    if (kind === "postgres") expect(crossProcess).toBeGreaterThan(0);

    // Memory stable: what stays on the heap after a full collection at the end of the run is within
    // half again the warmed-up heap plus 32 MB (sessions, caches and pools fill up to their bounds), and
    // the resident size within twice the warmed-up one. Generous bounds of sizes, never of speed.
    expect(heapWarm).toHaveLength(servers.length);
    for (let i = 0; i < servers.length; i++) {
      expect(heapEnd[i]!).toBeLessThan(1.5 * heapWarm[i]! + 32 * 2 ** 20);
      expect(end[i]!).toBeLessThan(2 * warm[i]!);
    }

    // The database against what the clients were told.
    for (const r of readers) await r.close();
    if (kind === "pglite") expect(await servers[0]!.stop()).toBe(0);
    const orders = await db.query<{ id: string; checkout_token: string; status: string }>(
      "select id, checkout_token, status from orders",
    );
    expect(orders).toHaveLength(checkouts.length);
    expect(new Set(orders.map((o) => o.checkout_token)).size).toBe(orders.length);
    const byToken = new Map(orders.map((o) => [o.checkout_token, o]));
    for (const c of checkouts) expect(byToken.get(c.token)?.id).toBe(c.checkout.orderId);
    const paid = new Set(orders.filter((o) => o.status === "paid").map((o) => o.id));
    expect([...paid].sort()).toEqual(payments.map((p) => p.orderId).sort());
    const events = await db.query<{ n: number; distinct: number }>(
      "select count(*)::int as n, count(distinct order_id)::int as distinct from payment_events where outcome = 'applied'",
    );
    expect(events[0]).toEqual({ n: payments.length, distinct: payments.length });
    const stored = await db.query<{ email: string; subject: string }>(
      "select email, subject from contact_messages",
    );
    expect(stored).toHaveLength(contacts.length);
    const storedKeys = new Set(stored.map((m) => `${m.email}|${m.subject}`));
    for (const c of contacts) expect(storedKeys.has(`${c.email}|${c.subject}`)).toBe(true);

    const ms = samples.map((s) => s.ms).sort((a, b) => a - b);
    const byKind = Object.keys(expected)
      .map((k) => {
        const list = samples
          .filter((s) => s.kind === k)
          .map((s) => s.ms)
          .sort((a, b) => a - b);
        return `${k} ${list.length} (p50 ${Math.round(percentile(list, 50))} ms, p99 ${Math.round(percentile(list, 99))} ms)`;
      })
      .join("; ");
    report(
      `load on ${kind}, ${servers.length} process(es), ${VISITORS} visitors + ${CLIENTS} clients with streams, ${elapsed.toFixed(0)} s: ` +
        `${samples.length} requests, ${(samples.length / elapsed).toFixed(1)} req/s, p50 ${Math.round(percentile(ms, 50))} ms, ` +
        `p99 ${Math.round(percentile(ms, 99))} ms, 5xx ${samples.filter((s) => s.status >= 500).length}; ${byKind}; ` +
        `${checkouts.length} orders, ${payments.length} paid, ${crossProcess} live events across processes; ` +
        `heap after GC MB warm/end ${servers.map((_, i) => `${mb(heapWarm[i]!)}/${mb(heapEnd[i]!)}`).join(", ")}; ` +
        `RSS MB idle/warm/end/peak ${servers.map((_, i) => `${mb(idle[i]!)}/${mb(warm[i]!)}/${mb(end[i]!)}/${mb(peak[i]!)}`).join(", ")}; ` +
        `RSS MB every ${Math.round(rss.length / 8) * 2} s: ${servers
          .map((_, i) =>
            rss
              .filter((_, j) => j % Math.max(1, Math.round(rss.length / 8)) === 0)
              .map((r) => mb(r[i]!))
              .join(" "),
          )
          .join(" | ")}; forwarded ${proxy.forwarded.join("/")}`,
    );
  }, 300_000); // setting up 60 signed-up clients takes a while on one PGlite process
});
