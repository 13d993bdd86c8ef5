/**
 * The Express application of Portico. Vite builds this file together with the React Router app
 * (see vite.config.ts), so the custom server and the routes share one module graph: one config,
 * one logger, one database client per process.
 */
import "./context";
import { randomUUID } from "node:crypto";
import { existsSync, readdirSync } from "node:fs";
import type { RequestListener } from "node:http";
import path from "node:path";
import zlib from "node:zlib";
import compression from "compression";
import express, { type ErrorRequestHandler } from "express";
import { pinoHttp } from "pino-http";
import { queryScope } from "~/db/client.server";
import { isDatabaseUnavailable } from "~/db/errors";
import { CLIENT_IP_HEADER } from "~/features/accounts/auth.server";
import { serviceContent } from "~/features/services/content.server";
import { bodyLimit } from "./body-limit";
import { countRequest, countRouteWork } from "./drain";
import { loggerOptions } from "./log-serializers";
import { BUILT_FILES_ROUTE, labelRoute, metricsEndpoint } from "./metrics";
import { cachedAnswers, REQUEST_ID } from "./page-cache";
import {
  RETRY_AFTER_SECONDS,
  reactRouterHandler,
  reportRequestError,
  UNAVAILABLE_MESSAGE,
} from "./react-router";
import { BAD_ADDRESS, requestGuards } from "./request-guards";
import { createRuntime, type Runtime } from "./runtime";
import { sameOriginOnly } from "./same-origin";
import {
  cspNonce,
  fileHeaders,
  httpsOnly,
  isDataApi,
  permissionsPolicy,
  runAll,
  securityHeaders,
} from "./security";
import { adminExists, printStartLines, startLines } from "./start-lines";

export { ConfigError } from "~/config.server";
// Operations on a database, for scripts and tests that hold the built server.
export { migrateDatabase } from "~/db/migrate.server";
export { seedDatabase } from "~/db/seed.server";
// `npm run admin:create` (scripts/admin-create.js) runs this from the build.
export { runAdminCreate } from "~/features/accounts/admin-create-cli.server";
// `npm run db:backup` and `npm run db:restore` (scripts/db-backup.js, scripts/db-restore.js) run these.
export { runDbBackup, runDbRestore } from "~/features/backups/backup-cli.server";
// server.js stops the process with these.
export { countRequest } from "./drain";
export { shutDownInOrder } from "./shutdown";
export type { Runtime };

/** Everything but Server-Sent Events is compressed (a compressed stream would never flush). */
function shouldCompress(req: express.Request, res: express.Response): boolean {
  const type = String(res.getHeader("Content-Type") ?? "");
  if (type.startsWith("text/event-stream")) return false;
  return compression.filter(req, res);
}

const QUERY_COUNTS_KEPT = 200;

export function createApp(runtime: Runtime): express.Express {
  const { config, logger } = runtime;
  const dev = config.env === "development";
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", config.trustProxy);

  // Counts each request's database queries, kept briefly by request id (tests hold pages to a budget).
  app.use((_req, res, next) => {
    const scope = { queries: 0 };
    res.on("finish", () => {
      const id = String(res.getHeader("X-Request-Id") ?? "");
      if (!id) return;
      runtime.queryCounts.set(id, scope.queries);
      if (runtime.queryCounts.size > QUERY_COUNTS_KEPT) {
        runtime.queryCounts.delete(runtime.queryCounts.keys().next().value!);
      }
    });
    queryScope.run(scope, next);
  });

  app.use(
    pinoHttp({
      logger,
      genReqId: (req, res) => {
        const incoming = req.headers["x-request-id"];
        const id = typeof incoming === "string" && REQUEST_ID.test(incoming) ? incoming : randomUUID();
        res.setHeader("X-Request-Id", id);
        return id;
      },
      autoLogging: { ignore: (req) => req.url === "/healthz" || Boolean(req.url?.startsWith("/assets/")) },
      customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? "error" : "info"),
      // The logger's own serializers (server/log-serializers.ts); pino-http would otherwise put its
      // defaults, which copy headers (cookies) and every property of an error, in their place.
      serializers: loggerOptions.serializers,
    }),
  );
  app.use(httpsOnly(config));
  // Built files at the compression middleware's defaults (gzip 6, brotli 4): cached for a year, their
  // bytes count for more than a few tenths of a millisecond. Everything else answered here is made per
  // request (signed-in pages, a public page's first render, loader data, JSON; the page cache stores its
  // own gzip and brotli) and gets gzip level 3 and brotli quality 3, the fast settings: on a portal page
  // about half the CPU of the defaults, for 7 % more bytes in gzip and 8 % in brotli (ADR 0820).
  const compressFiles = compression({ filter: shouldCompress });
  const compressAnswers = compression({
    filter: shouldCompress,
    level: 3,
    brotli: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 3 } },
  });
  app.use((req, res, next) =>
    (req.path.startsWith("/assets/") ? compressFiles : compressAnswers)(req, res, next),
  );
  // Built files (scripts, styles, icons) with headers of their own, before the page headers: a file is
  // never a document that runs scripts, so it gets the strictest policy in a few bytes rather than a
  // page's 1.4 KB of CSP and Permissions-Policy on each of a page's dozen scripts (ADR 0800). Anything
  // that is not a file here (a miss, a malformed path, a POST) goes on down the chain.
  if (!dev) {
    const client = path.resolve(process.cwd(), "build/client");
    const setHeaders = fileHeaders(config);
    // File names under /assets carry a content hash, so they can be cached for good.
    // Labelled as built files for /metrics, all under one label; one not found goes on and is relabelled.
    const assets = express.static(path.join(client, "assets"), {
      immutable: true,
      maxAge: "1y",
      index: false,
      setHeaders,
    });
    app.use("/assets", (req, res, next) => {
      labelRoute(res, BUILT_FILES_ROUTE);
      assets(req, res, next);
    });
    // The other public files (favicon.svg, og-image.svg, blog/…): only a path whose first segment is one
    // of build/client's own entries reaches the file system. Pages go straight on, without a stat and a
    // failed open before each (ADR 0820).
    const publicFiles = express.static(client, { maxAge: "1h", index: false, setHeaders });
    const entries = new Set(
      existsSync(client) ? readdirSync(client).filter((name) => name !== "assets") : [],
    );
    app.use((req, res, next) => {
      const slash = req.path.indexOf("/", 1);
      const first = req.path.slice(1, slash === -1 ? undefined : slash);
      if (!entries.has(first)) return next();
      labelRoute(res, BUILT_FILES_ROUTE);
      publicFiles(req, res, next);
    });
  }
  // Pages get the full set of security headers; JSON APIs get a file's few (ADR 0800).
  const pageHeaders = [cspNonce, securityHeaders(config), permissionsPolicy];
  const apiHeaders = fileHeaders(config);
  app.use((req, res, next) => {
    if (!isDataApi(req.path)) return runAll(pageHeaders, req, res, next);
    apiHeaders(res);
    next();
  });
  // Before anything reads a body (every middleware above is synchronous, so no byte has been read).
  app.use(bodyLimit());
  app.use(sameOriginOnly(config.publicUrl));
  // Malformed addresses (400) and non-form page posts (415), after the cross-origin refusal (403).
  app.use(requestGuards());
  // better-auth reads the client address (for its rate limits and session records) from this header:
  // always ours, from req.ip, never what the client sent under that name.
  app.use((req, _res, next) => {
    req.headers[CLIENT_IP_HEADER] = req.ip ?? "";
    next();
  });

  // Prometheus's scrape (server/metrics.ts): the token's holder or this machine; anyone else goes on
  // to the app's 404.
  app.get("/metrics", metricsEndpoint(runtime.metrics, config.metricsToken));

  app.get("/healthz", async (_req, res) => {
    labelRoute(res, "/healthz");
    try {
      await runtime.database.ping();
      res.set("Cache-Control", "no-store").json({ status: "ok", database: "up" });
    } catch (error) {
      logger.error({ err: error }, "health check: database unreachable");
      res.status(503).set("Cache-Control", "no-store").json({ status: "error", database: "down" });
    }
  });

  app.all(
    "/{*splat}",
    reactRouterHandler({
      // Loaders and actions are counted until they finish, also after their client left (server/drain.ts).
      build: () => import("virtual:react-router/server-build").then((b) => countRouteWork(b, runtime.drain)),
      mode: dev ? "development" : "production",
      getLoadContext: (req, res, failures) => ({
        runtime,
        requestId: String(req.id),
        cspNonce: String(res.locals.cspNonce ?? ""),
        logger: req.log,
        clientIp: req.ip ?? null,
        reportError: (error: unknown) => reportRequestError(req, failures, error),
      }),
    }),
  );

  // The last resort, for errors outside React Router's own handling. Always one JSON log line.
  const onError: ErrorRequestHandler = (error, req, res, _next) => {
    const status = (error as { status?: unknown }).status;
    const clientError = typeof status === "number" && status >= 400 && status < 500;
    if (clientError) req.log.warn({ err: error }, "bad request");
    else req.log.error({ err: error }, "unhandled error");
    if (res.headersSent) return res.end();
    res.set("Cache-Control", "no-store").type("text/plain");
    if (clientError) {
      // Express's router decodes the path before our guards see it: a malformed one is a URIError.
      const message =
        error instanceof URIError
          ? BAD_ADDRESS
          : status === 413
            ? "The request is too large."
            : "Bad request.";
      return res.status(status).send(message);
    }
    if (isDatabaseUnavailable(error)) {
      return res.status(503).set("Retry-After", String(RETRY_AFTER_SECONDS)).send(UNAVAILABLE_MESSAGE);
    }
    res.status(500).send(`Something went wrong on our side. Error ID: ${req.id}`);
  };
  app.use(onError);
  return app;
}

/**
 * What the HTTP server runs: cached answers first, before Express (server/page-cache.ts, ADR 0800), then
 * the app. Development has no cache: pages change as code does.
 */
export function createRequestHandler(runtime: Runtime, app: express.Express): RequestListener {
  const { drain } = runtime;
  const fromCache =
    runtime.config.env === "development" ? () => false : cachedAnswers(runtime, app.get("trust proxy fn"));
  return (req, res) => {
    // The shutdown waits for it; stopping, it is answered on a connection that closes after it.
    countRequest(res, drain);
    const startedAt = process.hrtime.bigint();
    res.once("finish", () => runtime.metrics.observe(req, res, startedAt));
    const render = () => app(req, res);
    if (!fromCache(req, res, render)) render();
  };
}

export interface Portico {
  runtime: Runtime;
  app: express.Express;
  /** The request listener to serve: cached answers, then `app`. */
  handler: RequestListener;
  /** Prints the start lines (server/start-lines.ts) once the server listens on `port`. */
  announce(port: number): Promise<void>;
  close(): Promise<void>;
}

async function announce(runtime: Runtime, port: number): Promise<void> {
  const { config, logger, database } = runtime;
  let hasAdmin = true;
  try {
    hasAdmin = await adminExists(database.db);
  } catch (error) {
    logger.warn({ err: error }, "could not check for an admin account");
  }
  printStartLines(startLines({ config, port, hasAdmin }), logger);
}

/** Creates the runtime (config, logger, migrated and seeded database), the Express app and its handler. */
export async function startPortico(env: Record<string, string | undefined> = process.env): Promise<Portico> {
  // The service pages' copy files are checked before anything else starts: a bad one stops the start,
  // naming the file and what is wrong, instead of failing a visitor's page later.
  serviceContent();
  const runtime = await createRuntime(env);
  const app = createApp(runtime);
  return {
    runtime,
    app,
    handler: createRequestHandler(runtime, app),
    announce: (port) => announce(runtime, port),
    close: () => runtime.close(),
  };
}

const DEV_KEY = Symbol.for("portico.dev");
type DevGlobal = typeof globalThis & { [DEV_KEY]?: Promise<Portico> };

/**
 * Development only: the launcher reloads this module through Vite on every request, so the
 * process-wide parts are kept on globalThis and created once.
 */
export function devPortico(): Promise<Portico> {
  const g = globalThis as DevGlobal;
  g[DEV_KEY] ??= startPortico();
  return g[DEV_KEY];
}
