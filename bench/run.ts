/**
 * `npm run bench`: measures the built server on this machine and prints a table. Not part of
 * `npm test` (timings are measured here, never asserted). Loopback only, bounded in count and time.
 *
 * - latency and throughput of the main pages with a fixed number of requests at a fixed concurrency;
 * - the JavaScript the home page loads before it is interactive (raw and gzip bytes).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";
import { gzipSync } from "node:zlib";
import { loadBuild } from "../tests/support/server";

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 300);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const ROUTES = ["/healthz", "/", "/services/email-migration", "/services/ssl-setup", "/no-such-page"];

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

async function measure(base: string, route: string) {
  const durations: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < REQUESTS) {
        next++;
        const t0 = performance.now();
        const res = await fetch(base + route, { headers: { "accept-encoding": "gzip" } });
        await res.arrayBuffer();
        durations.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  durations.sort((a, b) => a - b);
  return {
    route,
    requests: durations.length,
    "req/s": Math.round(durations.length / seconds),
    "p50 ms": percentile(durations, 50).toFixed(1),
    "p95 ms": percentile(durations, 95).toFixed(1),
    "max ms": (durations.at(-1) ?? 0).toFixed(1),
  };
}

async function homeJavaScript(base: string) {
  const html = await (await fetch(`${base}/`)).text();
  const assets = new Set([...html.matchAll(/\/assets\/[^"']+\.js/g)].map((m) => m[0]));
  let raw = 0;
  let gzip = 0;
  for (const a of assets) {
    const body = Buffer.from(await (await fetch(base + a)).arrayBuffer());
    raw += body.length;
    gzip += gzipSync(body, { level: 9 }).length;
  }
  return { files: assets.size, "raw KB": (raw / 1024).toFixed(1), "gzip KB": (gzip / 1024).toFixed(1) };
}

const build = await loadBuild();
const portico = await build.startPortico({
  NODE_ENV: "production",
  LOG_LEVEL: "silent",
  PGLITE_DIR: "memory://",
});
const server = createServer(portico.app);
await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
try {
  for (const route of ROUTES) await fetch(base + route); // warm-up
  const rows = [];
  for (const route of ROUTES) rows.push(await measure(base, route));
  console.log(`\nServer: ${REQUESTS} requests per route, ${CONCURRENCY} at a time, PGlite in memory`);
  console.table(rows);
  console.log("\nHome page JavaScript before interactive");
  console.table([await homeJavaScript(base)]);
} finally {
  server.closeAllConnections();
  server.close();
  await portico.close();
}
