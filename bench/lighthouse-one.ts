/**
 * Lighthouse (mobile preset) on a few pages of the built app, for comparing two builds back to back
 * while working on the browser side (issue 26): `npx tsx bench/lighthouse-one.ts [runs] [path…]`
 * from a folder holding `build/` and `server.js` (the worktree itself, or a copy of an older build).
 * Starts `node server.js` in production mode on a fresh PGlite folder, seeds a client with 50 paid
 * orders (the dashboard's Lighthouse page), and prints the median of `runs` (3) per page.
 * The full measurement, with the other pages and the load, is `npm run bench`.
 */
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type * as AppModule from "../server/app";
import { createAccount, createOrder, FIXTURE_PASSWORD } from "../tests/support/admin-fixtures";
import { Session } from "../tests/support/browserless";
import { freePort } from "../tests/support/server";

const runs = Number(process.argv[2] ?? 3);
const paths = process.argv.slice(3);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

async function main() {
  const build: typeof AppModule = await import(pathToFileURL(path.resolve("build/server/index.js")).href);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const workDir = mkdtempSync(path.join(os.tmpdir(), "portico-lh-"));
  const serverEnv: Record<string, string> = {
    NODE_ENV: "production",
    LOG_LEVEL: "silent",
    HOST: "127.0.0.1",
    PORT: String(port),
    PUBLIC_URL: base,
    TRUST_PROXY: "loopback",
    AUTH_SECRET: randomUUID() + randomUUID(),
    SANDBOX_WEBHOOK_SECRET: "lighthouse-sandbox-secret-0123456789",
    PGLITE_DIR: path.join(workDir, "db"),
    DATABASE_URL: "",
  };
  const seeder = await build.startPortico(serverEnv);
  const email = `lighthouse.${randomUUID().slice(0, 8)}@example.com`;
  try {
    const { db } = seeder.runtime.database;
    const id = await createAccount(db, { email, name: "Lighthouse Client" });
    for (let i = 0; i < 50; i++) await createOrder(db, id, { status: "paid" });
  } finally {
    await seeder.close();
  }
  const server = spawn(process.execPath, ["server.js"], {
    env: { ...process.env, ...serverEnv },
    stdio: ["ignore", "ignore", "inherit"],
  });
  try {
    for (let i = 0; ; i++) {
      if (
        await fetch(`${base}/healthz`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break;
      if (i > 300) throw new Error("the server did not start");
      await new Promise((r) => setTimeout(r, 100));
    }
    const session = new Session(base, "198.18.42.1");
    const login = await session.post("/client/login", { email, password: FIXTURE_PASSWORD });
    if (login.status !== 302) throw new Error(`sign-in answered ${login.status}`);
    const sitemap = await (await fetch(`${base}/sitemap.xml`)).text();
    const article = sitemap.match(/\/blog\/[a-z0-9-]+/)?.[0] ?? "/blog/missing";
    const pages = paths.length ? paths : [article, "/", "/client/dashboard"];
    for (const p of pages)
      await (await fetch(base + p, { headers: { cookie: session.cookieHeader } })).text();

    const { default: lighthouse } = await import("lighthouse");
    const chromeLauncher = await import("chrome-launcher");
    const chrome = await chromeLauncher.launch({
      chromePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu"],
    });
    const rows: Record<string, string | number>[] = [];
    try {
      for (const page of pages) {
        const each: Record<string, number>[] = [];
        while (each.length < runs) {
          const result = await lighthouse(base + page, {
            port: chrome.port,
            output: "json",
            logLevel: "error",
            extraHeaders: page.startsWith("/client/") ? { Cookie: session.cookieHeader } : undefined,
          });
          const lhr = result?.lhr;
          if (!lhr || lhr.runtimeError || lhr.categories.performance?.score == null) continue;
          const audit = (id: string) => Math.round(lhr.audits[id]?.numericValue ?? 0);
          if (process.env.LH_DETAIL) {
            // What the main thread did (ms, observed ×4), and the long tasks with what they ran.
            const items = (audit: string) =>
              ((lhr.audits[audit]?.details as { items?: Record<string, unknown>[] })?.items ?? []).slice(
                0,
                8,
              );
            console.log(page, "TBT", audit("total-blocking-time"));
            console.log(
              JSON.stringify(
                items("mainthread-work-breakdown").map((i) => [i.groupLabel, Math.round(Number(i.duration))]),
              ),
            );
            console.log(
              JSON.stringify(
                items("long-tasks").map((i) => [
                  i.url,
                  Math.round(Number(i.startTime)),
                  Math.round(Number(i.duration)),
                ]),
              ),
            );
          }
          each.push({
            performance: Math.round((lhr.categories.performance.score ?? 0) * 100),
            "FCP ms": audit("first-contentful-paint"),
            "LCP ms": audit("largest-contentful-paint"),
            "TBT ms": audit("total-blocking-time"),
            CLS: Math.round((lhr.audits["cumulative-layout-shift"]?.numericValue ?? 0) * 1000) / 1000,
            "SI ms": audit("speed-index"),
          });
        }
        const row: Record<string, string | number> = { page };
        for (const key of Object.keys(each[0]!)) row[key] = median(each.map((r) => r[key]!));
        row["TBT runs"] = each.map((r) => r["TBT ms"]).join(" ");
        rows.push(row);
      }
    } finally {
      chrome.kill();
    }
    console.table(rows);
    console.log(
      `load average: ${os
        .loadavg()
        .map((n) => n.toFixed(2))
        .join(" ")}`,
    );
  } finally {
    server.kill("SIGTERM");
    await new Promise((r) => server.once("exit", r));
    rmSync(workDir, { recursive: true, force: true });
  }
}

await main();
