/**
 * Metrics in Prometheus's text format (issue "running it for years", item 2), through prom-client with
 * a registry of this runtime's own (tests run many runtimes in one process): requests by route pattern,
 * method and status, with a latency histogram; the process (event-loop lag, heap, RSS: prom-client's
 * defaults); the database pool; the mail outbox; open live streams; payments recorded and the ones
 * needing attention. The database figures are read when scraped, one query.
 *
 * Requests are labelled with the route they matched (ADR 0904), never their path: a pattern of the route
 * table, `(built files)`, or `(other)` for everything no route answered, so made-up paths add no series.
 *
 * `GET /metrics` is served only with the bearer token METRICS_TOKEN, or, without one, to a connection
 * from this machine (its socket's loopback address, not forwarded; never `req.ip`); anyone else gets
 * the 404 of any unknown page. Never cached, never in the sitemap. See docs/deploy.md.
 */
import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { sql } from "drizzle-orm";
import type express from "express";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import { matchRoutes, type RouteObject } from "react-router";
import { type DatabaseHandle, queryRows } from "~/db/client.server";
import type { LiveHub } from "~/features/live/live-hub.server";

export interface Metrics {
  registry: Registry;
  /** Counts a finished request (call once per response). */
  observe(req: IncomingMessage, res: ServerResponse, startedAt: bigint): void;
  /** Counts a domain check done or failed, or an alert raised (issue 39). */
  countDomainWatch(what: "check" | "check-failed" | "alert"): void;
}

/** The label of every request no route of ours answered: unknown paths, refused requests, 404 pages. */
export const OTHER_ROUTE = "(other)";
/** The label of the built files (scripts, styles, icons, the public folder's files). */
export const BUILT_FILES_ROUTE = "(built files)";

/** The route each response answered for, set where the request was matched (never its raw path). */
const routes = new WeakMap<ServerResponse, string>();

/** Labels a response with the route it answered for: a pattern of the route table, or one of the above. */
export function labelRoute(res: ServerResponse, route: string): void {
  routes.set(res, route);
}

/** The route a response was labelled with; `(other)` when nothing matched it. */
export function routeLabelOf(res: ServerResponse): string {
  return routes.get(res) ?? OTHER_ROUTE;
}

/** What the matcher reads of a build's route manifest (`ServerBuild["routes"]`). */
interface ManifestRoute {
  id: string;
  parentId?: string;
  path?: string;
  index?: boolean;
  caseSensitive?: boolean;
}
interface RouteNode {
  id: string;
  path?: string;
  index?: boolean;
  caseSensitive?: boolean;
  children?: RouteNode[];
}

/**
 * A function giving a request path's route pattern from a build's route manifest, with React Router's
 * own `matchRoutes` (as its handler matches): `/client/orders/:orderId` for any order's id, the pattern
 * of a single-fetch `.data` request's page, and `(other)` for a path only the catch-all route (the 404
 * page) matches, so that no made-up path ever adds a label.
 */
export function routeMatcher(
  manifest: Record<string, ManifestRoute | undefined>,
): (pathname: string) => string {
  const nodes = new Map<string, RouteNode>();
  for (const r of Object.values(manifest)) {
    if (r) nodes.set(r.id, { id: r.id, path: r.path, index: r.index, caseSensitive: r.caseSensitive });
  }
  const tree: RouteNode[] = [];
  for (const r of Object.values(manifest)) {
    if (!r) continue;
    const node = nodes.get(r.id)!;
    const parent = r.parentId ? nodes.get(r.parentId) : undefined;
    if (!parent) tree.push(node);
    else if (parent.children) parent.children.push(node);
    else parent.children = [node];
  }
  return (pathname) => {
    // Single fetch asks for `/path.data` (`/_root.data` for the home page) on the page's own route.
    let path = pathname;
    if (path === "/_root.data") path = "/";
    else if (path.endsWith(".data")) path = path.slice(0, -5);
    const matches = matchRoutes(tree as RouteObject[], path);
    if (!matches?.length) return OTHER_ROUTE;
    const pattern = `/${matches
      .map((m) => m.route.path ?? "")
      .join("/")
      .split("/")
      .filter(Boolean)
      .join("/")}`;
    return pattern === "/*" ? OTHER_ROUTE : pattern;
  };
}

/**
 * What the metrics read: the database (its pool's counts, its figures) and the live hub's open streams.
 * Named here rather than taken from the runtime's type, so the runtime imports this module and not the
 * reverse (no import circle between server/metrics.ts and server/runtime.ts).
 */
export interface MetricsSources {
  database: Pick<DatabaseHandle, "db" | "pool">;
  live: Pick<LiveHub, "subscriberCount">;
}

export function createMetrics(runtime: MetricsSources): Metrics {
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

  const domainChecks = new Counter({
    name: "portico_domain_checks_total",
    help: "Domain checks run by this process (the watch, the owner's check now, the free check), by outcome.",
    labelNames: ["outcome"] as const,
    registers: [registry],
  });
  const domainAlerts = new Counter({
    name: "portico_domain_alerts_raised_total",
    help: "Domain alerts raised by this process's checks.",
    registers: [registry],
  });
  domainChecks.inc({ outcome: "done" }, 0);
  domainChecks.inc({ outcome: "failed" }, 0);

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
    countDomainWatch(what) {
      if (what === "alert") domainAlerts.inc();
      else domainChecks.inc({ outcome: what === "check" ? "done" : "failed" });
    },
    observe(req, res, startedAt) {
      const seconds = Number(process.hrtime.bigint() - startedAt) / 1e9;
      const labels = {
        route: routeLabelOf(res),
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

async function readFigures(runtime: Pick<MetricsSources, "database">): Promise<DatabaseFigures> {
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

/**
 * Whether a request comes from this machine itself, judged by the connection alone: its socket's
 * address is loopback and nothing says it was forwarded. Never `req.ip`: with TRUST_PROXY that is read
 * from X-Forwarded-For, which anyone who reaches the port can send.
 */
export function fromThisMachine(req: IncomingMessage): boolean {
  if (req.headers["x-forwarded-for"] !== undefined || req.headers.forwarded !== undefined) return false;
  return isLoopback(req.socket.remoteAddress);
}

function tokenMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(header?.startsWith("Bearer ") ? header.slice(7) : "");
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** GET /metrics: the token's holder, or (without a token) this machine's own connection; anyone else a 404. */
export function metricsEndpoint(metrics: Metrics, token: string | null): express.RequestHandler {
  return async (req, res, next) => {
    const allowed = token ? tokenMatches(req.get("authorization"), token) : fromThisMachine(req);
    if (!allowed) return next();
    labelRoute(res, "/metrics");
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
