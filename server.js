// @ts-check
/**
 * Portico's process: reads .env, then serves the built app (`npm start`) or the live Vite dev server
 * (`npm run dev`). Everything else — config, database, routes — lives in server/app.ts, which Vite
 * builds into build/server/index.js.
 */
import { existsSync } from "node:fs";
import { createServer } from "node:http";

const dev = process.argv.includes("--dev");
if (existsSync(".env")) process.loadEnvFile(".env");
process.env.NODE_ENV ??= dev ? "development" : "production";

const DRAIN_TIMEOUT_MS = 10_000;

/** @param {unknown} error */
function fail(error) {
  // A configuration error is one clear line; anything else gets its stack.
  if (error instanceof Error && error.name === "ConfigError") console.error(error.message);
  else console.error(error);
  process.exit(1);
}

async function main() {
  /** @type {import("./server/app").Portico} */
  let portico;
  /** @type {import("node:http").RequestListener} */
  let handler;
  /** @type {{ close(): Promise<void> } | null} */
  let vite = null;
  /** @type {typeof import("./server/app").shutDownInOrder} */
  let shutDownInOrder;

  if (dev) {
    const { createServer: createViteServer } = await import("vite");
    const viteServer = await createViteServer({ server: { middlewareMode: true } });
    vite = viteServer;
    /** @returns {Promise<typeof import("./server/app")>} */
    const load = async () => /** @type {any} */ (await viteServer.ssrLoadModule("./server/app.ts"));
    portico = await (await load()).devPortico();
    shutDownInOrder = (await load()).shutDownInOrder;
    const express = (await import("express")).default;
    const app = express();
    app.use(viteServer.middlewares);
    app.use(async (req, res, next) => {
      try {
        // As the production handler does (server/app.ts createRequestHandler).
        (await load()).countRequest(res, portico.runtime.drain);
        const current = await (await load()).devPortico();
        current.app(req, res, next);
      } catch (error) {
        if (error instanceof Error) viteServer.ssrFixStacktrace(error);
        next(error);
      }
    });
    handler = app;
  } else {
    const buildPath = new URL("./build/server/index.js", import.meta.url);
    if (!existsSync(buildPath))
      throw new Error("No build found: run `npm run build` first (npm start does it for you).");
    /** @type {typeof import("./server/app")} */
    const build = await import(buildPath.href);
    portico = await build.startPortico();
    handler = portico.handler;
    shutDownInOrder = build.shutDownInOrder;
  }

  const { config, logger } = portico.runtime;
  const server = createServer(handler);
  // Receiving a request (headers, then a body of at most 64 KB) may take this long; a client trickling
  // bytes to hold a connection open is cut off. They bound receiving only, never an answer: long-lived
  // responses such as the portal's event stream are not affected.
  server.headersTimeout = 20_000;
  server.requestTimeout = 30_000;
  // An idle keep-alive connection stays open longer than the proxies in front keep theirs (nginx and
  // load balancers: 60 s), so a proxy never reuses a connection this server has just closed (Node's
  // 5 s default gave intermittent 502s under load; docs/decisions/0900-fault-and-load-suite.md).
  server.keepAliveTimeout = 65_000;
  // A port already taken (another Portico, another app) is one clear line and exit 1, not a stack.
  server.once("error", (error) => {
    const code = /** @type {NodeJS.ErrnoException} */ (error).code;
    const where = `${config.host ?? "all interfaces"} port ${config.port}`;
    const reason =
      code === "EADDRINUSE"
        ? `${where} is already in use (another process is listening there): stop it, or start on another port, e.g. PORT=3001 npm start`
        : code === "EACCES"
          ? `${where} needs privileges this process does not have: choose a port above 1023, e.g. PORT=3000 npm start`
          : null;
    if (!reason) return fail(error);
    logger.error({ code, port: config.port }, `Cannot listen: ${reason}`);
    portico.close().finally(() => process.exit(1));
  });
  server.listen(config.port, config.host, () => {
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : config.port;
    // Where the site is, where its mail can be read, whether an admin exists (server/start-lines.ts).
    portico.announce(port).catch(fail);
  });

  let stopping = false;
  /**
   * Stops in order (server/shutdown.ts, docs/decisions/0901-shutdown-in-order.md): stop accepting, end
   * the event streams, answer the requests in flight (at most DRAIN_TIMEOUT_MS), stop the workers, close
   * the database. Exits 0 when everything accepted was answered, 1 after a forced stop.
   * @param {string} signal
   */
  const shutdown = async (signal) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down");
    // The last resort: a database that does not let go (a stuck query) does not keep the process alive.
    const hardStop = setTimeout(() => {
      logger.error("shutting down: the database did not close in time; exiting");
      process.exit(1);
    }, DRAIN_TIMEOUT_MS * 2);
    hardStop.unref();
    try {
      const outcome = await shutDownInOrder({
        server,
        drain: portico.runtime.drain,
        endStreams: () => portico.runtime.live.endStreams(),
        close: async () => {
          await vite?.close();
          await portico.close();
        },
        logger,
        timeoutMs: DRAIN_TIMEOUT_MS,
      });
      logger.info({ outcome }, "stopped");
      process.exit(outcome === "drained" ? 0 : 1);
    } catch (error) {
      logger.error({ err: error }, "shutting down failed");
      process.exit(1);
    }
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}

main().catch(fail);
