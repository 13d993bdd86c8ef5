/**
 * The first lines of `npm start` (server/start-lines.ts): a newcomer's start (production mode, no relay,
 * no admin) says where the site is, where its captured mail can be read, and how to make the first
 * admin; the inbox it names answers. In a terminal the lines are plain sentences, elsewhere log records.
 */
import { spawn } from "node:child_process";
import { type AddressInfo, createServer } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { jsonLines, type NpmStart, npmStart, npmStartEnv } from "../support/npm-start";
import { freePort } from "../support/server";

const ADMIN_HINT = "No admin yet: npm run admin:create -- --email you@example.com";
const messages = (p: NpmStart) => jsonLines(p.stdout()).map((l) => String(l.msg));

// Each test starts fresh embedded databases (migrations included): slow on a busy machine.
const SLOW = 240_000;

let running: NpmStart[] = [];
afterEach(async () => {
  for (const p of running) await p.stop();
  running = [];
}, SLOW);
function start(...args: Parameters<typeof npmStart>) {
  const p = npmStart(...args);
  running.push(p);
  return p;
}

/** Fetch from this machine (the lines name localhost; the server listens on 127.0.0.1 only). */
const local = (url: string) => fetch(url.replace("//localhost:", "//127.0.0.1:"), { redirect: "manual" });

describe("the start lines of npm start", () => {
  it(
    "name the site, the captured-mail inbox (which answers) and the missing admin, then go quiet once an admin exists",
    async () => {
      const port = await freePort();
      const first = start({ PORT: String(port) });
      await first.waitFor(() => messages(first).includes(ADMIN_HINT));
      const lines = jsonLines(first.stdout());
      const at = lines.findIndex((l) => l.msg === "Portico listening");
      expect(lines.slice(at).map((l) => l.msg)).toEqual([
        "Portico listening",
        `No SMTP_URL: mail is captured, not sent; read it at http://localhost:${port}/dev/mail`,
        `Anyone who can reach this site can read every email at http://localhost:${port}/dev/mail, password-reset links included: set SMTP_URL before the site faces the public (docs/deploy.md)`,
        ADMIN_HINT,
      ]);
      expect(lines[at]).toMatchObject({ port, url: `http://localhost:${port}`, mode: "production" });
      // Only the database and mail set-up come before them.
      expect(at).toBeLessThanOrEqual(3);
      const inbox = String(lines[at + 1]!.inbox);
      expect(inbox).toBe(`http://localhost:${port}/dev/mail`);
      const page = await local(inbox);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain("captured (no SMTP_URL)");
      expect(first.stderr()).toBe("");

      // The hint's command, run while the site is up, makes the admin; the next start says no more.
      const admin = spawn(
        process.execPath,
        ["scripts/admin-create.js", "--email", "owner@example.com", "--password", "Str0ng!Passw0rd-owner"],
        { env: npmStartEnv({}, first.dataDir), stdio: "ignore" },
      );
      expect(await new Promise((resolve) => admin.on("exit", resolve))).toBe(0);
      expect(await first.stop({ keepData: true })).toBe(0);
      running = [];
      const second = start({ PORT: String(port) }, { dataDir: first.dataDir });
      await second.waitFor(() => messages(second).includes("Portico listening"));
      // The lines are written together; the listening record is the first of them.
      await second.waitFor((out) => out.includes("/dev/mail"));
      expect(messages(second)).not.toContain(ADMIN_HINT);
    },
    SLOW,
  );

  it(
    "are plain sentences in a terminal",
    async () => {
      // `script` gives the server a pseudo-terminal, as a person's shell does.
      const p = start(
        { PORT: "0" },
        { command: ["script", "-qfec", `exec "${process.execPath}" server.js`, "/dev/null"] },
      );
      const out = await p.waitFor((o) => o.includes(ADMIN_HINT));
      const text = out.replace(/\r/g, "");
      const port = text.match(/^Portico listening on http:\/\/localhost:(\d+)$/m)?.[1];
      expect(port).toBeTruthy();
      expect(text).toContain(
        `\nNo SMTP_URL: mail is captured, not sent; read it at http://localhost:${port}/dev/mail\n`,
      );
      expect(text).toContain(`\n${ADMIN_HINT}\n`);
      expect((await local(`http://localhost:${port}/dev/mail`)).status).toBe(200);
    },
    SLOW,
  );

  it(
    "say in one line that the port is taken, and exit 1, when another process listens there",
    async () => {
      const taken = createServer();
      await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
      const port = (taken.address() as AddressInfo).port;
      try {
        const p = start({ PORT: String(port) });
        expect(await p.exited).toBe(1);
        const failure = jsonLines(p.stdout()).find((l) => String(l.msg).startsWith("Cannot listen"));
        expect(failure).toMatchObject({
          level: 50,
          code: "EADDRINUSE",
          port,
          msg: `Cannot listen: 127.0.0.1 port ${port} is already in use (another process is listening there): stop it, or start on another port, e.g. PORT=3001 npm start`,
        });
        // No stack trace, no unhandled error.
        expect(p.stderr()).toBe("");
        expect(p.stdout()).not.toContain("    at ");
      } finally {
        taken.close();
      }
    },
    SLOW,
  );

  it(
    "keep the inbox off with a relay, and warn on an https site without one",
    async () => {
      const relay = start({ PORT: "0", SMTP_URL: "smtp://127.0.0.1:9" });
      const https = start({ PORT: "0", PUBLIC_URL: "https://it.example.com" });
      await relay.waitFor(() => messages(relay).includes(ADMIN_HINT));
      expect(messages(relay)).toContain("Mail is sent through SMTP_URL");
      const url = String(jsonLines(relay.stdout()).find((l) => l.msg === "Portico listening")!.url);
      expect((await local(`${url}/dev/mail`)).status).toBe(404);

      await https.waitFor(() => messages(https).includes(ADMIN_HINT));
      const warning = jsonLines(https.stdout()).find((l) => String(l.msg).startsWith("WARNING: no SMTP_URL"));
      expect(warning).toMatchObject({ level: 40, inbox: null });
    },
    SLOW,
  );
});
