/**
 * The soak (issue "running it for years", item 3): two production processes on one PostgreSQL behind the
 * round-robin proxy (TEST_DATABASE_URL's server; without one, one process on PGlite), visitors and
 * signed-in clients at a steady pace for SOAK_MINUTES (15), each process's RSS and heap after a full
 * collection sampled every SOAK_SAMPLE_SECONDS (30). It prints the series and fails when the heap
 * after collection grows by more than 10 % between minute 5 (a third of the run when shorter) and the
 * end: a leak grows steadily, a cache fills once. Not part of `npm test`; run it with `npm run soak`.
 */
import { tmpdir } from "node:os";
import { describe, expect, it } from "vitest";
import { location, Session } from "../support/browserless";
import { faultRig } from "../support/fault-rig";
import {
  checkoutToken,
  nextIp,
  PASSWORD,
  postContact,
  readCheckout,
  registerClient,
  report,
  sendPaidWebhook,
  submitCheckout,
} from "../support/faults";
import { EventReader } from "../support/portal";
import { errorLines, type ServerProcess } from "../support/server-process";

const MINUTES = Number(process.env.SOAK_MINUTES ?? 15);
const SAMPLE_MS = Number(process.env.SOAK_SAMPLE_SECONDS ?? 30) * 1000;
const VISITORS = 20;
const CLIENTS = 10;
const BASELINE_MINUTE = Math.min(5, MINUTES / 3);
const SNAPSHOTS = process.env.SOAK_HEAP_SNAPSHOTS === "1";
const PORTAL_PAGES = [
  "/client/dashboard",
  "/client/orders",
  "/client/invoices",
  "/client/services",
  "/client/quotes",
];

const pick = <T>(list: T[]): T => list[Math.floor(Math.random() * list.length)]!;
const pause = (min: number, max: number) =>
  new Promise((resolve) => setTimeout(resolve, min + Math.random() * (max - min)));
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

async function heapAfterGc(server: ServerProcess, snapshot?: string): Promise<number> {
  const res = await fetch(new URL("/api/test-hooks/memory", server.url), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(snapshot ? { snapshot } : {}),
  });
  const body = (await res.json()) as { collected: boolean; heapUsed: number };
  if (res.status !== 200 || !body.collected)
    throw new Error(`memory hook: ${res.status} ${JSON.stringify(body)}`);
  return body.heapUsed;
}

const kind: "pglite" | "postgres" = process.env.TEST_DATABASE_URL ? "postgres" : "pglite";

describe(`soak: ${MINUTES} minutes on ${kind}`, () => {
  const rig = faultRig();

  it("keeps each process's heap after collection flat at a steady pace, with no 5xx", async () => {
    const { smtp, env } = await rig.databaseAndMail(kind, {
      MAIL_POLL_INTERVAL_MS: "1000",
      TEST_HOOKS: "true",
    });
    const servers: ServerProcess[] = [await rig.server(env, "process A", ["--expose-gc"])];
    if (kind === "postgres") servers.push(await rig.server(env, "process B", ["--expose-gc"]));
    const labels = servers.map((_, i) => `process ${"AB"[i]}`);
    const proxy = await rig.roundRobin(servers);
    const front = proxy.url;
    const sitemap = await (await fetch(new URL("/sitemap.xml", front))).text();
    const publicPages = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname);

    const clients: Array<{ session: Session; email: string }> = [];
    for (let i = 0; i < CLIENTS; i++) clients.push(await registerClient(front, smtp, `${kind}.soak.${i}`));
    // Half the clients hold a live stream for the whole run, as open portal tabs do.
    for (const c of clients.slice(0, CLIENTS / 2)) {
      const res = await fetch(new URL("/api/events", front), { headers: { cookie: c.session.cookieHeader } });
      const stream = new EventReader(res);
      rig.closeAtEnd(() => stream.close());
    }

    const statuses: number[] = [];
    const request = async (send: () => Promise<Response>) => {
      try {
        const res = await send();
        statuses.push(res.status);
        await res.arrayBuffer().catch(() => {});
        return res;
      } catch {
        statuses.push(0);
        return null;
      }
    };
    const until = Date.now() + MINUTES * 60_000;
    const visitor = async (n: number) => {
      const ip = nextIp();
      let round = 0;
      while (Date.now() < until) {
        round++;
        if (Math.random() < 0.02) {
          const { response } = postContact(front, `${kind}.soak.v${n}.${round}`);
          await request(() => response);
        } else {
          await request(() =>
            fetch(new URL(pick(publicPages), front), { headers: { "x-forwarded-for": ip } }),
          );
        }
        await pause(1000, 3000);
      }
    };
    const client = async (n: number) => {
      const { session, email } = clients[n]!;
      while (Date.now() < until) {
        const roll = Math.random();
        if (roll < 0.6) await request(() => session.get(pick(PORTAL_PAGES)));
        else if (roll < 0.75) {
          const token = await checkoutToken(session).catch(() => null);
          if (token) {
            const res = await request(() => submitCheckout(session, token));
            if (res?.status === 302) await request(() => sendPaidWebhook(front, readCheckout(location(res))));
          }
        } else if (roll < 0.8) {
          const fresh = new Session(front, nextIp());
          await request(() => fresh.post("/client/login", { email, password: PASSWORD }));
        } else await request(() => session.get(pick(publicPages)));
        await pause(1000, 3000);
      }
    };

    const began = Date.now();
    const series: Array<{ minute: number; rss: number[]; heap: number[] }> = [];
    const sample = async () => {
      const heap = await Promise.all(servers.map((s) => heapAfterGc(s)));
      series.push({ minute: (Date.now() - began) / 60_000, rss: servers.map((s) => s.rss()), heap });
    };
    let sampling = Promise.resolve();
    const sampler = setInterval(() => {
      sampling = sampling.then(sample);
    }, SAMPLE_MS);
    const baselineSnapshot = SNAPSHOTS
      ? setTimeout(() => {
          sampling = sampling.then(async () => void (await heapAfterGc(servers[0]!, "soak-baseline")));
        }, BASELINE_MINUTE * 60_000)
      : null;
    await Promise.all([
      ...Array.from({ length: VISITORS }, (_, n) => visitor(n)),
      ...Array.from({ length: CLIENTS }, (_, n) => client(n)),
    ]);
    clearInterval(sampler);
    if (baselineSnapshot) clearTimeout(baselineSnapshot);
    await sampling;
    await sample();
    if (SNAPSHOTS) {
      // The leak hunt (SOAK_HEAP_SNAPSHOTS=1): process A's heap at the baseline minute and at the end,
      // compared by tests/soak/heap-diff.ts.
      await heapAfterGc(servers[0]!, "soak-end");
      report(`heap snapshots: ${tmpdir()}/soak-baseline.heapsnapshot and ${tmpdir()}/soak-end.heapsnapshot`);
    }

    report(`soak: ${MINUTES} min on ${kind}, ${servers.length} process(es), ${statuses.length} requests`);
    report(`minute | ${labels.map((l) => `${l} RSS MB | ${l} heap after GC MB`).join(" | ")}`);
    for (const row of series) {
      report(
        `${row.minute.toFixed(1).padStart(6)} | ` +
          servers.map((_, i) => `${mb(row.rss[i]!)} | ${mb(row.heap[i]!)}`).join(" | "),
      );
    }

    expect(statuses.filter((s) => s === 0 || s >= 500).length, "failed or 5xx answers").toBe(0);
    expect(servers.flatMap((s) => errorLines(s)).slice(0, 3)).toEqual([]);
    const baseline = series.find((r) => r.minute >= BASELINE_MINUTE) ?? series[0]!;
    const last = series.at(-1)!;
    labels.forEach((label, i) => {
      const growth = last.heap[i]! / baseline.heap[i]! - 1;
      report(
        `${label}: heap after GC ${mb(baseline.heap[i]!)} MB at minute ${baseline.minute.toFixed(1)} → ${mb(last.heap[i]!)} MB at the end (${(growth * 100).toFixed(1)} %)`,
      );
      expect(growth, `${label}'s heap after GC grew`).toBeLessThanOrEqual(0.1);
    });
  });
});
