/** The process itself (`node server.js`, as `npm start` runs it): start-up, configuration errors, SIGTERM. */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const dataDir = mkdtempSync(path.join(tmpdir(), "portico-launcher-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function launch(env: Record<string, string>) {
  const child = spawn(process.execPath, ["server.js"], {
    env: { ...process.env, NODE_ENV: "production", HOST: "127.0.0.1", PORT: "0", LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c: Buffer) => {
    stdout += c.toString();
  });
  child.stderr.on("data", (c: Buffer) => {
    stderr += c.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const listening = new Promise<string>((resolve, reject) => {
    child.stdout.on("data", () => {
      const line = stdout.split("\n").find((l) => l.includes('"Portico listening"'));
      if (line) resolve(`http://127.0.0.1:${JSON.parse(line).port}`);
    });
    void exited.then(() => reject(new Error(`exited early: ${stderr}`)));
  });
  // Tests that expect an early exit never await `listening`; keep its rejection from going unhandled.
  listening.catch(() => {});
  return { child, exited, listening, output: () => ({ stdout, stderr }) };
}

describe("node server.js", () => {
  it("creates the embedded database, serves the site, and stops cleanly on SIGTERM", async () => {
    const proc = launch({ PGLITE_DIR: path.join(dataDir, "pglite") });
    const url = await proc.listening;
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    const home = await fetch(url);
    expect(home.status).toBe(200);
    // Idle keep-alive connections outlive a proxy's (60 s): no 502 from a reused, just-closed one.
    expect(home.headers.get("keep-alive")).toBe("timeout=65");
    expect(await home.text()).toContain("Portico IT Services");
    proc.child.kill("SIGTERM");
    expect(await proc.exited).toBe(0);
    expect(proc.output().stdout).toContain('"msg":"stopped"');
  });

  it("keeps the data across restarts", async () => {
    const proc = launch({ PGLITE_DIR: path.join(dataDir, "pglite") });
    await proc.listening;
    proc.child.kill("SIGTERM");
    expect(await proc.exited).toBe(0);
    // The second start found the catalogue already seeded.
    expect(proc.output().stdout).toContain('"servicesAdded":0');
  });

  it("stops with one clear line naming a bad variable", async () => {
    const proc = launch({ PGLITE_DIR: "memory://", PORT: "abc" });
    expect(await proc.exited).toBe(1);
    const lines = proc.output().stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Invalid configuration: PORT must be a port number/);
  });

  it("logs every error as one JSON line, bad input included, and never on stderr", async () => {
    const proc = launch({ PGLITE_DIR: "memory://", AUTH_SECRET: "launcher-secret-launcher-secret-0000" });
    const url = await proc.listening;
    const form = { "content-type": "application/x-www-form-urlencoded" };
    const answers = [
      await fetch(`${url}/api/exchange-rates`, { method: "POST" }),
      await fetch(`${url}/privacy`, { method: "POST", headers: form, body: "a=1" }),
      await fetch(`${url}/`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" }),
      await fetch(`${url}/%E0%A4%A`),
      await fetch(`${url}/client/login`, {
        method: "POST",
        headers: { "content-type": "multipart/form-data; boundary=x" },
        body: "garbage",
      }),
    ];
    expect(answers.map((r) => r.status)).toEqual([405, 405, 415, 400, 400]);
    proc.child.kill("SIGTERM");
    expect(await proc.exited).toBe(0);
    const { stdout, stderr } = proc.output();
    expect(stderr).toBe("");
    const lines = stdout.split("\n").filter((l) => l.trim() !== "");
    for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow();
    // The refused requests are there, each with its request id.
    const refused = lines.map((l) => JSON.parse(l)).filter((l) => l.level >= 40 && l.req?.id);
    expect(refused.length).toBeGreaterThanOrEqual(4);
  });
});
