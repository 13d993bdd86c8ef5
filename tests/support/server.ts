/**
 * Starts the real built Portico (build/server/index.js) on 127.0.0.1 with a fresh database, as the
 * launcher does in production, and gives tests its URL and runtime.
 */

import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type * as AppModule from "../../server/app";
import type { TestDatabase } from "./databases";

export type Build = typeof AppModule;

export async function loadBuild(): Promise<Build> {
  return import(pathToFileURL(path.resolve("build/server/index.js")).href);
}

/** A port that was free a moment ago, for a server that must know its own URL before it starts. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

export interface TestServer {
  url: string;
  portico: AppModule.Portico;
  /** fetch against the server, without following redirects. */
  get(pathname: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

export async function startTestServer(
  database: TestDatabase,
  /** Extra environment; a function gets the fresh database's own (e.g. to reach it through a proxy). */
  env: Record<string, string> | ((databaseEnv: Record<string, string>) => Record<string, string>) = {},
): Promise<TestServer> {
  const build = await loadBuild();
  const db = await database.create();
  const extra = typeof env === "function" ? env(db.env) : env;
  const portico = await build.startPortico({
    NODE_ENV: "test",
    LOG_LEVEL: "silent",
    PUBLIC_URL: "http://127.0.0.1",
    // The domain checker asks a resolver nobody runs (the discard port): a domain a test adds is never
    // looked up on the internet; the domain tests give their own world's DNS server.
    DNS_SERVERS: "127.0.0.1:9",
    ...db.env,
    ...extra,
  });
  const server: Server = createServer(portico.handler);
  // A PUBLIC_URL with a port (from freePort) makes the server listen there, so it knows its own
  // address (the sandbox payment provider posts its webhooks to it).
  const port = extra.PUBLIC_URL ? Number(new URL(extra.PUBLIC_URL).port || 0) : 0;
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    portico,
    get: (pathname, init) => fetch(new URL(pathname, url), { redirect: "manual", ...init }),
    async close() {
      try {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await portico.close();
      } finally {
        // Even when closing failed (a test that closed the database itself makes portico.close() throw):
        // otherwise its PostgreSQL database outlives the run.
        await db.drop();
      }
    },
  };
}
