/**
 * Metrics in Prometheus's text format (issue "running it for years", item 2), through prom-client with
 * a registry of this runtime's own (tests run many runtimes in one process): requests by route pattern,
 * method and status, with a latency histogram; the process (event-loop lag, heap, RSS: prom-client's
 * defaults); the database pool; the mail outbox; open live streams; payments recorded and the ones
 * needing attention. The database figures are read when scraped, one query.
 *
 * `GET /metrics` is served only with the bearer token METRICS_TOKEN, or, without one, to a client on
 * this machine (its address as the trust-proxy setting reads it); anyone else gets the 404 of any
 * unknown page. Never cached, never in the sitemap. See docs/deploy.md.
 */
import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { sql } from "drizzle-orm";
import type express from "express";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import { queryRows } from "~/db/client.server";
import type { Runtime } from "./runtime";

export interface Metrics {
  registry: Registry;
  /** Counts a finished request (call once per response). */
  observe(req: IncomingMessage, res: ServerResponse, startedAt: bigint): void;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TOKENISH = /^(?=.*\d)[A-Za-z0-9_-]{16,}$/;

/**
 * A request's route pattern, with few enough values to be a label: ids (UUIDs, numbers, long tokens)
 * become `:id`, built files one pattern, anything that was not found one value, at most four segments.
 */
export function routePattern(pathname: string, status: number): string {
  if (status === 404) return "(not found)";
  if (pathname.startsWith("/assets/")) return "/assets/*";
  const segments = pathname.split("/").filter(Boolean).slice(0, 4);
  const pattern = segments.map((s) => (UUID.test(s) || /^\d+$/.test(s) || TOKENISH.test(s) ? ":id" : s));
  const joined = `/${pattern.join("/")}`;
  return joined.length > 80 ? "(long path)" : joined;
}

export function createMetrics(runtime: Pick<Runtime, "database" | "live">): Metrics {
  const registry = new Registry();
  registry.setDefaultLabels({ app: "portico" });
  collectDefaultMetrics({ register: registry, prefix: "portico_" });

  const requests = new Counter({
    name: "portico_http_requests_total",
    help: "HTTP requests answered, by route pattern, method and status.",
    labelNames: ["route", "method", "status"] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: "portico_http_request_duration_seconds",
    help: "Time to answer HTTP requests, by route pattern, method and status.",
    labelNames: ["route", "method", "status"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });

  const { pool } = runtime.database;
  new Gauge({
    name: "portico_db_pool_connections",
    help: "PostgreSQL pool connections by state (total, idle, in use); 0 on the embedded database.",
    labelNames: ["state"] as const,
    registers: [registry],
    collect() {
      const total = pool?.totalCount ?? 0;
      const idle = pool?.idleCount ?? 0;
      this.set({ state: "total" }, total);
      this.set({ state: "idle" }, idle);
      this.set({ state: "in_use" }, total - idle);
    },
  });
  new Gauge({
    name: "portico_db_pool_waiting",
    help: "Queries waiting for a PostgreSQL pool connection.",
    registers: [registry],
    collect() {
      this.set(pool?.waitingCount ?? 0);
    },
  });
  new Gauge({
    name: "portico_live_streams_open",
    help: "Live-update streams open in this process.",
    registers: [registry],
    collect() {
      this.set(runtime.live.subscriberCount);
    },
  });

  // The database's figures: read once per scrape, shared by the gauges below.
  let read: Promise<DatabaseFigures> | null = null;
  const figures = () => {
    read ??= readFigures(runtime).finally(() => {
      setTimeout(() => {
        read = null;
      }, 0);
    });
    return read;
  };
  new Gauge({
    name: "portico_outbox_emails",
    help: "Emails in the outbox waiting to be sent (queued) and given up on (failed).",
    labelNames: ["state"] as const,
    registers: [registry],
    async collect() {
      const f = await figures();
      this.set({ state: "queued" }, f.queued);
      this.set({ state: "failed" }, f.failed);
    },
  });
  new Gauge({
    name: "portico_outbox_oldest_queued_age_seconds",
    help: "Age of the oldest email waiting in the outbox; 0 when none waits.",
    registers: [registry],
    async collect() {
      this.set((await figures()).oldestQueuedSeconds);
    },
  });
  new Gauge({
    name: "portico_payments_recorded",
    help: "Payments recorded from the providers (webhook, return check or sweep), all time.",
    registers: [registry],
    async collect() {
      this.set((await figures()).paymentsRecorded);
    },
  });
  new Gauge({
    name: "portico_payments_needing_attention",
    help: "Payment issues on the back office's Needs attention list.",
    registers: [registry],
    async collect() {
      this.set((await figures()).paymentIssues);
    },
  });

  return {
    registry,
    observe(req, res, startedAt) {
      const seconds = Number(process.hrtime.bigint() - startedAt) / 1e9;
      const url = req.url ?? "/";
      const q = url.indexOf("?");
      const labels = {
        route: routePattern(q === -1 ? url : url.slice(0, q), res.statusCode),
        method: /^(GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS)$/.test(req.method ?? "") ? req.method! : "OTHER",
        status: String(res.statusCode),
      };
      requests.inc(labels);
      latency.observe(labels, seconds);
    },
  };
}

interface DatabaseFigures {
  queued: number;
  failed: number;
  oldestQueuedSeconds: number;
  paymentsRecorded: number;
  paymentIssues: number;
}

async function readFigures(runtime: Pick<Runtime, "database">): Promise<DatabaseFigures> {
  const [row] = await queryRows<Record<keyof DatabaseFigures, string | number | null>>(
    runtime.database.db,
    sql`select
          (select count(*) from outbox_emails where status in ('pending', 'sending')) as "queued",
          (select count(*) from outbox_emails where status = 'failed') as "failed",
          coalesce((select extract(epoch from now() - min(created_at)) from outbox_emails
                     where status in ('pending', 'sending')), 0) as "oldestQueuedSeconds",
          (select count(*) from payment_events where outcome = 'applied') as "paymentsRecorded",
          (select count(*) from payment_issues) as "paymentIssues"`,
  );
  const n = (v: string | number | null | undefined) => Number(v ?? 0);
  return {
    queued: n(row?.queued),
    failed: n(row?.failed),
    oldestQueuedSeconds: n(row?.oldestQueuedSeconds),
    paymentsRecorded: n(row?.paymentsRecorded),
    paymentIssues: n(row?.paymentIssues),
  };
}

function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  return address === "::1" || address.startsWith("127.") || address.startsWith("::ffff:127.");
}

function tokenMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(header?.startsWith("Bearer ") ? header.slice(7) : "");
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** GET /metrics: the token's holder, or (without a token) this machine; anyone else a 404. */
export function metricsEndpoint(metrics: Metrics, token: string | null): express.RequestHandler {
  return async (req, res, next) => {
    const allowed = token ? tokenMatches(req.get("authorization"), token) : isLoopback(req.ip);
    if (!allowed) return next();
    try {
      const body = await metrics.registry.metrics();
      res
        .status(200)
        .set("Cache-Control", "no-store")
        .set("X-Robots-Tag", "noindex")
        .type(metrics.registry.contentType)
        .send(body);
    } catch (error) {
      next(error);
    }
  };
}
