/**
 * The production server as a child process (`node server.js` on the build), for the fault and load
 * suites: start it on a data directory or a PostgreSQL database, kill it (SIGKILL or SIGTERM), start it
 * again on the same data, read its resident memory and its JSON log lines.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";

export interface ServerProcess {
  url: string;
  pid: number;
  child: ChildProcess;
  /** Resolves with the exit code (or the signal's name) once the process has ended. */
  exited: Promise<number | string | null>;
  /** Every line it printed, parsed when JSON (pino), else `{ msg: line }`. */
  logs(): Array<Record<string, unknown>>;
  alive(): boolean;
  /** Resident memory now, in bytes (Linux /proc). */
  rss(): number;
  /** kill -9: no shutdown code runs. */
  crash(): Promise<void>;
  /** SIGTERM: drains and exits 0. */
  stop(): Promise<number | string | null>;
}

export async function launchServer(
  env: Record<string, string>,
  label = "server",
  nodeOptions: string[] = [],
): Promise<ServerProcess> {
  const child = spawn(process.execPath, [...nodeOptions, "server.js"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: "0",
      LOG_LEVEL: "info",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: Array<Record<string, unknown>> = [];
  let partial = "";
  const take = (chunk: Buffer) => {
    partial += chunk.toString();
    const parts = partial.split("\n");
    partial = parts.pop() ?? "";
    for (const line of parts) {
      if (!line.trim()) continue;
      try {
        lines.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        lines.push({ msg: line, raw: true });
      }
    }
  };
  child.stdout!.on("data", take);
  child.stderr!.on("data", take);
  let ended = false;
  const exited = new Promise<number | string | null>((resolve) =>
    child.once("exit", (code, signal) => {
      ended = true;
      resolve(code ?? signal);
    }),
  );
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${label} did not start in 90 s:\n${dump()}`)), 90_000);
    const check = () => {
      const line = lines.find((l) => l.msg === "Portico listening");
      if (!line) return;
      clearTimeout(timer);
      child.stdout!.off("data", check);
      resolve(`http://127.0.0.1:${line.port}`);
    };
    child.stdout!.on("data", check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${label} exited (${code}) before listening:\n${dump()}`));
    });
  });
  function dump() {
    return lines
      .slice(-30)
      .map((l) => JSON.stringify(l))
      .join("\n");
  }
  return {
    url,
    pid: child.pid!,
    child,
    exited,
    logs: () => lines,
    alive: () => !ended,
    rss() {
      const status = readFileSync(`/proc/${child.pid}/status`, "utf8");
      const kb = Number(status.match(/^VmRSS:\s+(\d+)\s+kB/m)?.[1] ?? Number.NaN);
      return kb * 1024;
    },
    async crash() {
      if (ended) return;
      child.kill("SIGKILL");
      await exited;
    },
    async stop() {
      if (ended) return exited;
      child.kill("SIGTERM");
      return exited;
    },
  };
}

/** Lines at level error (50) or above, and anything a crash printed outside the JSON log. */
export function errorLines(server: ServerProcess): Array<Record<string, unknown>> {
  return server.logs().filter((l) => (typeof l.level === "number" && l.level >= 50) || l.raw === true);
}
