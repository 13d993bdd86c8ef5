/**
 * Starts `node server.js` (the production server of `npm start`, from the current build) on a free port
 * with a fresh database: a temporary PGlite folder, or a fresh PostgreSQL database when
 * TEST_DATABASE_URL is set. Workers find it in PORTICO_E2E_URL.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { testDatabases } from "../support/databases";
import requireBuild from "../support/require-build";
import { seedAdminFixtures } from "./admin-seed";
import { startE2eDomainWorld } from "./domain-world-setup";

function waitForListening(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => reject(new Error(`server did not start in time:\n${output}`)), 60_000);
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      for (const line of output.split("\n")) {
        if (!line.includes('"Portico listening"')) continue;
        clearTimeout(timer);
        resolve(`http://127.0.0.1:${JSON.parse(line).port}`);
        return;
      }
    });
    child.stderr!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
}

/** A port that was free a moment ago: the server must know its own address (PUBLIC_URL) for email links. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export default async function globalSetup() {
  requireBuild();
  const port = await freePort();
  const database = testDatabases[testDatabases.length - 1]!;
  const fresh = await database.create();
  const dataDir = mkdtempSync(path.join(tmpdir(), "portico-e2e-"));
  // The domain watch's checks reach only this machine's small internet (issue 39).
  const domains = await startE2eDomainWorld(dataDir);
  const env = {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    // The browser talks to the server directly; tests fake X-Forwarded-For (one address per test), which
    // counts because the peer (127.0.0.1) is a trusted proxy.
    TRUST_PROXY: "loopback",
    HOST: "127.0.0.1",
    LOG_LEVEL: "info",
    AUTH_SECRET: "e2e-secret-e2e-secret-e2e-secret-0000",
    // Prices use the built-in rate table and the browser's Accept-Language: no provider, no proxy header.
    EXCHANGE_RATES_URL: "",
    COUNTRY_HEADER: "",
    // Mail is captured (no SMTP_URL) and shown at /dev/mail; every browser test posts from 127.0.0.1.
    DEV_MAIL_ENABLED: "true",
    CONTACT_RATE_LIMIT_PER_HOUR: "1000",
    // The portal's browser tests make orders and payments through /api/test-hooks/* (never on in a deployment).
    TEST_HOOKS: "true",
    ...domains.env,
    ...fresh.env,
    // A PGlite folder on disk (not the in-memory one integration tests use), so it can be seeded first.
    ...(fresh.env.DATABASE_URL ? {} : { PGLITE_DIR: path.join(dataDir, "pglite") }),
  };
  // Before the server opens the database (PGlite allows one process): the back office's fixtures.
  await seedAdminFixtures(env);
  const child = spawn(process.execPath, ["server.js"], {
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const url = await waitForListening(child);
  child.stdout!.resume();
  process.env.PORTICO_E2E_URL = url;

  return async () => {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
    await fresh.drop();
    await domains.world.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
