/**
 * CPU milliseconds per request of the server process (ADR 0820), for comparing builds on a shared
 * machine where wall-clock figures move by ±40 % between identical runs: the server's utime + stime
 * (from /proc/<pid>/stat) around N sequential requests of each signed-in page, then around a few seconds
 * of autocannon at 10 connections, for a client with 1,000 orders and invoices. Builds are measured in
 * turn, alternating, against the same seeded database.
 *
 *   npm run build && cp -r build drizzle server.js package.json /tmp/before/   (node_modules, content: links)
 *   … change, npm run build …
 *   BENCH_CPU_BUILDS=/tmp/before,. npx tsx bench/cpu.ts
 *
 * BENCH_CPU_BUILDS: folders holding server.js and build/ (".", this checkout, by default), each run with
 * its folder as working directory. BENCH_CPU_ROUNDS (3): how many times the builds alternate.
 * BENCH_DATABASES ("pglite", or "pglite,postgres" with DATABASE_URL set: a fresh database is made
 * there and dropped after). BENCH_CPU_REQUESTS (150) sequential requests a page; BENCH_DURATION (4)
 * seconds at 10 connections a page, 0 to skip. BENCH_CPU_PAGES (the dashboard, orders and invoices).
 * BENCH_CPU_PROFILE=1 runs each server under `node --cpu-prof` and prints its top functions.
 * Linux only (/proc). Timings are printed, never asserted.
 */
import { type ChildProcess, execFile, execFileSync, spawn } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { Agent, request } from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import pg from "pg";
import { createAccount, FIXTURE_PASSWORD } from "../tests/support/admin-fixtures";
import { Session } from "../tests/support/browserless";
import { freePort, loadBuild } from "../tests/support/server";
import { addOrders, ms, type Row, summarizeProfile } from "./shared";

const env = process.env;
const BUILDS = (env.BENCH_CPU_BUILDS ?? ".").split(",").map((b) => path.resolve(b));
const ROUNDS = Number(env.BENCH_CPU_ROUNDS ?? 3);
const REQUESTS = Number(env.BENCH_CPU_REQUESTS ?? 150);
const DURATION = Number(env.BENCH_DURATION ?? 4);
const PAGES = (env.BENCH_CPU_PAGES ?? "/client/dashboard,/client/orders,/client/invoices").split(",");
const PROFILE = env.BENCH_CPU_PROFILE === "1";
const TICKS_PER_SECOND = Number(execFileSync("getconf", ["CLK_TCK"]).toString().trim()) || 100;
const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const run = promisify(execFile);

/** User + system CPU time of a process so far, in ms. */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

/** Keep-alive, one connection: made afresh for each server. */
let agent = new Agent({ keepAlive: true, maxSockets: 1 });

/** One GET as a browser sends it (gzip accepted), body read but not decompressed: its status and bytes. */
function get(url: string, cookie: string): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, headers: { cookie, "accept-encoding": "gzip" } }, (res) => {
      let bytes = 0;
      res.on("data", (c: Buffer) => {
        bytes += c.length;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, bytes }));
    });
    req.on("error", reject);
    req.end();
  });
}

async function startServer(dir: string, serverEnv: Record<string, string>, base: string, flags: string[]) {
  const child = spawn(process.execPath, [...flags, "server.js"], {
    cwd: dir,
    env: { ...env, ...serverEnv },
    stdio: ["ignore", "ignore", "inherit"],
  });
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`the server in ${dir} exited with ${child.exitCode}`);
    if (
      await fetch(`${base}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return child;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("the server did not start within 30 s");
}

async function stopServer(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  child.kill("SIGTERM");
  await exited;
}

async function measurePage(base: string, page: string, cookie: string, pid: number): Promise<Row> {
  for (let i = 0; i < 30; i++) {
    const r = await get(base + page, cookie);
    if (r.status !== 200) throw new Error(`${page} answered ${r.status}`);
  }
  let bytes = 0;
  const before = cpuMs(pid);
  for (let i = 0; i < REQUESTS; i++) bytes = (await get(base + page, cookie)).bytes;
  const sequential = (cpuMs(pid) - before) / REQUESTS;
  const row: Row = { page, "gzip bytes": bytes, "CPU ms one at a time": ms(sequential) };
  if (DURATION > 0) {
    const input = JSON.stringify({
      url: base + page,
      connections: 10,
      duration: DURATION,
      headers: { "accept-encoding": "gzip", cookie },
    });
    const start = cpuMs(pid);
    const { stdout } = await run(process.execPath, [here("./load.mjs"), input], { maxBuffer: 1 << 20 });
    const load = JSON.parse(stdout.trim().split("\n").at(-1)!) as {
      rps: number;
      total: number;
      non2xx: number;
    };
    if (load.non2xx) throw new Error(`${page} answered ${load.non2xx} non-2xx under load`);
    row["CPU ms at 10 conns"] = ms((cpuMs(pid) - start) / load.total);
    row["req/s at 10 conns"] = Math.round(load.rps);
  }
  return row;
}

async function freshPostgres(adminUrl: string) {
  const name = `portico_cpu_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
    },
  };
}

async function benchDatabase(kind: "pglite" | "postgres") {
  const workDir = mkdtempSync(path.join(os.tmpdir(), "portico-cpu-"));
  const postgres = kind === "postgres" ? await freshPostgres(env.DATABASE_URL!) : null;
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const serverEnv: Record<string, string> = {
    NODE_ENV: "production",
    LOG_LEVEL: "silent",
    HOST: "127.0.0.1",
    PORT: String(port),
    PUBLIC_URL: base,
    TRUST_PROXY: "loopback",
    AUTH_SECRET: randomUUID() + randomUUID(),
    SANDBOX_WEBHOOK_SECRET: "bench-sandbox-secret-0123456789",
    ...(postgres
      ? { DATABASE_URL: postgres.url }
      : { PGLITE_DIR: path.join(workDir, "db"), DATABASE_URL: "" }),
  };
  const rows: Row[] = [];
  try {
    // Seeded once, through this checkout's build: a client with 1,000 orders and invoices, 20 with 3.
    const seeder = await (await loadBuild()).startPortico(serverEnv);
    const email = `cpu.${randomUUID().slice(0, 8)}@example.com`;
    try {
      const { db } = seeder.runtime.database;
      const id = await createAccount(seeder.runtime.database.db, { email, name: "CPU Client" });
      let seq = await addOrders(db, id, 1_000, 1);
      for (let i = 0; i < 20; i++) {
        const other = await createAccount(db, { email: `other${i}.${email}`, name: `Other ${i}` });
        seq = await addOrders(db, other, 3, seq);
      }
    } finally {
      await seeder.close();
    }
    let cookie = "";
    for (let round = 1; round <= ROUNDS; round++) {
      for (const dir of BUILDS) {
        const profileDir = PROFILE ? mkdtempSync(path.join(workDir, "prof-")) : "";
        const flags = PROFILE ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : [];
        const server = await startServer(dir, serverEnv, base, flags);
        agent = new Agent({ keepAlive: true, maxSockets: 1 });
        try {
          if (!cookie) {
            const session = new Session(base, "198.18.9.1");
            const res = await session.post("/client/login", { email, password: FIXTURE_PASSWORD });
            if (res.status !== 302) throw new Error(`sign-in answered ${res.status}`);
            cookie = session.cookieHeader;
          }
          for (const page of PAGES) {
            rows.push({ round, build: dir, ...(await measurePage(base, page, cookie, server.pid!)) });
          }
        } finally {
          agent.destroy();
          await stopServer(server);
        }
        if (PROFILE) {
          const file = readdirSync(profileDir).find((f) => f.endsWith(".cpuprofile"))!;
          const summary = summarizeProfile(JSON.parse(readFileSync(path.join(profileDir, file), "utf8")));
          console.log(`\n${kind}, ${dir}, round ${round}: ${summary.busyMs} ms busy (profile ${file})`);
          console.table(summary.functions);
        }
      }
    }
  } finally {
    await postgres?.drop();
    if (!PROFILE) rmSync(workDir, { recursive: true, force: true });
  }
  return rows;
}

const databases = (env.BENCH_DATABASES ?? (env.DATABASE_URL ? "pglite,postgres" : "pglite")).split(",") as (
  | "pglite"
  | "postgres"
)[];
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/** One row per build and page: the median of each measure over the rounds. */
function medians(rows: Row[]): Row[] {
  const groups = new Map<string, Row[]>();
  for (const row of rows) {
    const key = `${row.build} ${row.page}`;
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  return [...groups.values()].map((group) => {
    const out: Row = { build: group[0]!.build!, page: group[0]!.page!, rounds: group.length };
    for (const measure of Object.keys(group[0]!)) {
      if (["round", "build", "page"].includes(measure)) continue;
      out[measure] = ms(median(group.map((r) => Number(r[measure]))));
    }
    return out;
  });
}

for (const kind of databases) {
  const rows = await benchDatabase(kind);
  console.log(
    `\n=== ${kind}: CPU ms of the server process per request (load average ${os.loadavg()[0]}) ===`,
  );
  console.table(rows);
  console.log(`${kind}: medians over the rounds`);
  console.table(medians(rows));
}
