/**
 * `npm run admin:create` against a running `node server.js`: on the embedded database it goes through
 * the server's local channel (PGlite lets one process open the folder), with no server it opens the
 * folder itself, and on PostgreSQL it connects directly. Each time the new admin can sign in.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { location, Session } from "../support/browserless";
import { testDatabases } from "../support/databases";

const dataDir = mkdtempSync(path.join(tmpdir(), "portico-admin-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const BASE_ENV = {
  NODE_ENV: "production",
  HOST: "127.0.0.1",
  PORT: "0",
  LOG_LEVEL: "info",
  AUTH_SECRET: "admin-create-test-secret-0123456789abcdef",
};

function startServer(env: Record<string, string>) {
  const child = spawn(process.execPath, ["server.js"], {
    env: { ...process.env, ...BASE_ENV, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const url = new Promise<string>((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split("\n").find((l) => l.includes('"Portico listening"'));
      if (line) resolve(`http://127.0.0.1:${JSON.parse(line).port}`);
    });
    child.stderr!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    void exited.then(() => reject(new Error(`server exited early:\n${output}`)));
  });
  return {
    url,
    async stop() {
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
    },
  };
}

function adminCreate(args: string[], env: Record<string, string>) {
  const child: ChildProcess = spawn(process.execPath, ["scripts/admin-create.js", ...args], {
    env: { ...process.env, ...BASE_ENV, ...env },
    // Not a terminal: no prompt; a new account gets a generated password.
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (c: Buffer) => {
    stdout += c.toString();
  });
  child.stderr!.on("data", (c: Buffer) => {
    stderr += c.toString();
  });
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on("exit", (code) => resolve({ code, stdout, stderr })),
  );
}

async function signIn(url: string, email: string, password: string) {
  const s = new Session(url, "127.0.0.1");
  const res = await s.post("/client/login", { email, password });
  return res.status === 302 ? location(res) : `status ${res.status}`;
}

const generatedPassword = (stdout: string) => stdout.match(/keep it safe\): (\S+)/)?.[1] ?? "";

describe("admin:create on the embedded database", () => {
  const env = { PGLITE_DIR: path.join(dataDir, "pglite") };

  it("works through the running server, then directly once it stopped", async () => {
    const server = startServer(env);
    const url = await server.url;
    expect(existsSync(path.join(dataDir, ".admin-channel"))).toBe(true);

    const first = await adminCreate(["--email", "Owner@Example.com", "--name", "The Owner"], env);
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    expect(first.stdout).toContain("Created the admin account owner@example.com, through the running server");
    const password = generatedPassword(first.stdout);
    expect(password.length).toBeGreaterThanOrEqual(20);
    expect(await signIn(url, "owner@example.com", password)).toBe("/admin/dashboard");

    // Bad input is refused with a clear line and changes nothing.
    const bad = await adminCreate(["--email", "not-an-email"], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--email must be an email address");
    const weak = await adminCreate(["--email", "owner@example.com", "--password", "short"], env);
    expect(weak.code).toBe(1);
    expect(weak.stderr).toContain("nothing was changed");
    await server.stop();
    // The channel file goes with the server.
    expect(existsSync(path.join(dataDir, ".admin-channel"))).toBe(false);

    const direct = await adminCreate(["--email", "owner@example.com", "--password", "N3w!Password"], env);
    expect(direct.code).toBe(0);
    expect(direct.stdout).toContain(
      "The account was already an admin: owner@example.com, directly on the embedded database",
    );
    expect(direct.stdout).toContain("Its password is the one you gave.");

    const again = startServer(env);
    const url2 = await again.url;
    expect(await signIn(url2, "owner@example.com", "N3w!Password")).toBe("/admin/dashboard");
    expect(await signIn(url2, "owner@example.com", password)).toBe("status 401");
    await again.stop();
  }, 180_000);
});

// Only when TEST_DATABASE_URL names a PostgreSQL server (as CI sets it).
describe.each(testDatabases.filter((d) => d.name === "postgres"))("admin:create on $name", (postgres) => {
  it("connects directly while the server runs", async () => {
    const db = await postgres.create();
    const server = startServer(db.env);
    try {
      const url = await server.url;
      const result = await adminCreate(["--email", "pg-owner@example.com"], db.env);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(
        "Created the admin account pg-owner@example.com, directly on PostgreSQL",
      );
      expect(await signIn(url, "pg-owner@example.com", generatedPassword(result.stdout))).toBe(
        "/admin/dashboard",
      );
    } finally {
      await server.stop();
      await db.drop();
    }
  }, 120_000);
});
