/**
 * The setup every fault and load suite shares (tests/faults): a durable database, the SMTP catcher, the
 * production server processes on them, and the proxies some suites put in front of the database or the
 * servers. A rig is made once per `describe`; whatever it started is closed by one `afterAll`, the last
 * started first (streams before the proxy before the servers before the SMTP catcher and the database),
 * also when the test failed halfway. Server processes still running then are killed (kill -9).
 */
import { afterAll } from "vitest";
import { type DurableDatabase, durableDatabase, serverEnv } from "./faults";
import { type RoundRobinProxy, startRoundRobinProxy } from "./round-robin";
import { launchServer, type ServerProcess } from "./server-process";
import { startTestSmtp, type TestSmtp } from "./smtp";
import { startTcpProxy, type TcpProxy } from "./tcp-proxy";

export interface FaultRig {
  /** A database that outlives the server processes (a PGlite folder, or a fresh PostgreSQL database). */
  database(kind: "pglite" | "postgres"): Promise<DurableDatabase>;
  /** The SMTP catcher, on `port` when a relay comes back where the servers expect it. */
  smtp(port?: number): Promise<TestSmtp>;
  /** The usual start: a durable database, the SMTP catcher, and a suite server's environment on both. */
  databaseAndMail(
    kind: "pglite" | "postgres",
    extraEnv?: Record<string, string>,
  ): Promise<{ db: DurableDatabase; smtp: TestSmtp; env: Record<string, string> }>;
  /** `node server.js` on the build (server-process.ts). */
  server(env: Record<string, string>, label?: string, nodeOptions?: string[]): Promise<ServerProcess>;
  /**
   * A TCP proxy in front of TEST_DATABASE_URL's server, which the test can black-hole, and the
   * `DATABASE_URL` that reaches `db` through it.
   */
  databaseProxy(db: DurableDatabase): Promise<{ proxy: TcpProxy; env: { DATABASE_URL: string } }>;
  /** A round-robin HTTP proxy in front of server processes. */
  roundRobin(servers: ServerProcess[]): Promise<RoundRobinProxy>;
  /** Anything else the test opens (an event stream, an HTTP agent), closed with the rest. */
  closeAtEnd(close: () => unknown): void;
}

export function faultRig(): FaultRig {
  const closers: Array<() => unknown> = [];
  afterAll(async () => {
    const failures: unknown[] = [];
    for (const close of closers.splice(0).reverse()) {
      try {
        await close();
      } catch (error) {
        failures.push(error);
      }
    }
    if (failures.length) throw failures[0];
  });
  const kept = <T>(value: T, close: (value: T) => unknown): T => {
    closers.push(() => close(value));
    return value;
  };

  const rig: FaultRig = {
    async database(kind) {
      return kept(await durableDatabase(kind), (db) => db.drop());
    },
    async smtp(port) {
      return kept(await startTestSmtp(port), (smtp) => smtp.close());
    },
    async databaseAndMail(kind, extraEnv = {}) {
      const db = await rig.database(kind);
      const smtp = await rig.smtp();
      return { db, smtp, env: { ...db.env, ...serverEnv(smtp.url), ...extraEnv } };
    },
    async server(env, label = "server", nodeOptions = []) {
      return kept(await launchServer(env, label, nodeOptions), (server) => server.crash());
    },
    async databaseProxy(db) {
      const target = new URL(process.env.TEST_DATABASE_URL ?? "");
      if (db.name !== "postgres" || !db.env.DATABASE_URL)
        throw new Error("a database proxy needs PostgreSQL");
      // Resumed first, so nothing waits on bytes it holds.
      const proxy = kept(await startTcpProxy(target.hostname, Number(target.port || 5432)), (p) => {
        p.resume();
        return p.close();
      });
      const throughProxy = new URL(db.env.DATABASE_URL);
      throughProxy.hostname = "127.0.0.1";
      throughProxy.port = String(proxy.port);
      return { proxy, env: { DATABASE_URL: throughProxy.toString() } };
    },
    async roundRobin(servers) {
      return kept(await startRoundRobinProxy(servers.map((s) => s.url)), (proxy) => proxy.close());
    },
    closeAtEnd(close) {
      closers.push(close);
    },
  };
  return rig;
}
