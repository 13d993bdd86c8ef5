/**
 * Starts the site the way a newcomer's `npm start` does: `node server.js` on the build, NODE_ENV unset (so
 * production), in a fresh temporary folder for the embedded database, and with none of Portico's settings
 * from the test runner's environment (no SMTP_URL, no DEV_MAIL_ENABLED, no DATABASE_URL…): every variable
 * `.env.example` names is removed, then only `env` is added. The site listens on 127.0.0.1 alone.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/** The variables Portico reads, as listed (commented or not) in .env.example. */
export function porticoVariables(): string[] {
  const example = readFileSync(path.resolve(".env.example"), "utf8");
  return [...example.matchAll(/^#?\s*([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]!);
}

export function npmStartEnv(env: Record<string, string>, dataDir: string): NodeJS.ProcessEnv {
  const clean: NodeJS.ProcessEnv = { ...process.env };
  for (const name of porticoVariables()) delete clean[name];
  return { ...clean, HOST: "127.0.0.1", PGLITE_DIR: path.join(dataDir, "pglite"), ...env };
}

export interface NpmStart {
  child: ChildProcess;
  /** Everything printed on standard output so far. */
  stdout(): string;
  stderr(): string;
  /** Resolves once `predicate` holds for the output (rejects if the process ends first, or after 120 s). */
  waitFor(predicate: (stdout: string) => boolean): Promise<string>;
  exited: Promise<number | string | null>;
  /** SIGTERM, wait for the exit; the data folder is removed unless `keepData`. */
  stop(options?: { keepData?: boolean }): Promise<number | string | null>;
  dataDir: string;
}

/**
 * `command` runs instead of `node server.js` when given (e.g. under `script` for a terminal); it must
 * end with the server process itself.
 */
export function npmStart(
  env: Record<string, string> = {},
  options: { dataDir?: string; command?: [string, ...string[]] } = {},
): NpmStart {
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), "portico-npm-start-"));
  const [file, ...args] = options.command ?? [process.execPath, "server.js"];
  const child = spawn(file, args, { env: npmStartEnv(env, dataDir), stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  const waiters = new Set<() => void>();
  child.stdout!.on("data", (c: Buffer) => {
    stdout += c.toString();
    for (const w of waiters) w();
  });
  child.stderr!.on("data", (c: Buffer) => {
    stderr += c.toString();
  });
  const exited = new Promise<number | string | null>((resolve) =>
    child.once("exit", (code, signal) => resolve(code ?? signal)),
  );
  let ended = false;
  void exited.then(() => {
    ended = true;
  });
  return {
    child,
    dataDir,
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
    waitFor(predicate) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`not seen in 120 s; output:\n${stdout}\n${stderr}`));
        }, 120_000);
        function check() {
          if (!predicate(stdout)) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(stdout);
        }
        waiters.add(check);
        check();
        void exited.then((code) => {
          if (!waiters.has(check)) return;
          clearTimeout(timer);
          waiters.delete(check);
          reject(new Error(`exited (${code}) first; output:\n${stdout}\n${stderr}`));
        });
      });
    },
    async stop({ keepData = false } = {}) {
      if (!ended) child.kill("SIGTERM");
      const code = await exited;
      if (!keepData) rmSync(dataDir, { recursive: true, force: true });
      return code;
    },
  };
}

/** The parsed JSON lines of an output (lines that are not JSON are skipped). */
export function jsonLines(output: string): Array<Record<string, unknown>> {
  return output
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .flatMap((l) => {
      try {
        return [JSON.parse(l) as Record<string, unknown>];
      } catch {
        return [];
      }
    });
}
