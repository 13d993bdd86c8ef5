/**
 * The periodic-job runner: every timed job of the site (overdue invoices, quote expiry, the payment
 * sweep, backups, pruning, and the renewals to come) registers here with a name, an interval, a lease
 * length and its work, instead of wiring its own timer, running flag, clock and shutdown.
 *
 * - Each process runs one runner; every runner offers every job at its interval, and a job runs under
 *   its lease (`job_leases`, named after the job), so two processes never run the same job at once.
 * - A job still running when its next tick comes is not started twice; the tick is skipped.
 * - A failing job is logged (its type, message and code, never a dump) and offered again next tick;
 *   nothing a job throws reaches the process.
 * - `stop()` (the runtime's close, ADR 0901) clears the timers, tells running jobs to stop (`stopping()`
 *   and `signal`) and waits for them and their lease's release, so none meets a closed database.
 * - Time is injected: `now` is the clock each run is given, `ticker` what calls the ticks (timers in
 *   production; a test calls `tick(name)` itself and never waits for real time).
 */
import { randomBytes } from "node:crypto";
import type { Database } from "~/db/client.server";
import { acquireLease, releaseLease } from "./leases.server";

/** What a run is given. */
export interface JobRun {
  /** The runner's clock, read once when the run starts. */
  now: Date;
  /** Who holds the lease (this runner): a job that takes the same lease itself passes it on. */
  holder: string;
  /** Aborted when the runner stops: long work (a pg_dump) ends early. */
  signal: AbortSignal;
  /** True once the runner stops: a job working through a batch stops between items. */
  stopping(): boolean;
}

export interface PeriodicJob {
  /** The job's name in logs, and its lease's name. */
  name: string;
  /** How often every process offers to run it. */
  intervalMs: number;
  /** How long a run holds the lease at most, should its process die without releasing it. */
  leaseMs: number;
  run(run: JobRun): Promise<void>;
}

/** What calls the ticks: `every` starts calling `tick` each `ms` and returns what cancels it. */
export interface Ticker {
  every(ms: number, tick: () => void): () => void;
}

/** Real timers, which do not keep the process alive. */
export const timerTicker: Ticker = {
  every(ms, tick) {
    const timer = setInterval(tick, ms);
    timer.unref();
    return () => clearInterval(timer);
  },
};

export interface JobRunnerDeps {
  db: Database;
  logger: { warn(obj: object, msg: string): void };
  /** The clock (tests inject one); `new Date()` by default. */
  now?: () => Date;
  /** Who this runner is in `job_leases`; one per process, made up when not given. */
  holder?: string;
  ticker?: Ticker;
}

export interface JobRunner {
  /** Adds a job; a job added after `start()` starts at once. Names are unique. */
  register(job: PeriodicJob): void;
  /** Starts every registered job's ticks. */
  start(): void;
  /**
   * Offers `name` once now, as its timer does: runs it under its lease unless it is still running,
   * another holder has the lease, or the runner is stopping. Resolves when that offer is over.
   */
  tick(name: string): Promise<void>;
  /** Stops the ticks and waits for running jobs (and their leases' release). Safe to call again. */
  stop(): Promise<void>;
}

export function createJobRunner(deps: JobRunnerDeps): JobRunner {
  const { db, logger } = deps;
  const now = deps.now ?? (() => new Date());
  const holder = deps.holder ?? `${process.pid}-${randomBytes(6).toString("hex")}`;
  const ticker = deps.ticker ?? timerTicker;
  const jobs = new Map<string, PeriodicJob>();
  const running = new Map<string, Promise<void>>();
  const cancels: Array<() => void> = [];
  const abort = new AbortController();
  let started = false;
  let stopped: Promise<void> | null = null;

  const schedule = (job: PeriodicJob) => {
    cancels.push(ticker.every(job.intervalMs, () => void tick(job.name)));
  };

  const offer = async (job: PeriodicJob): Promise<void> => {
    let leased = false;
    try {
      const at = now();
      leased = await acquireLease(db, job.name, holder, at, job.leaseMs);
      if (!leased) return;
      await job.run({ now: at, holder, signal: abort.signal, stopping: () => stopped !== null });
    } catch (error) {
      logger.warn({ err: error, job: job.name }, "timed job failed");
    } finally {
      if (leased) await releaseLease(db, job.name, holder).catch(() => {});
    }
  };

  const tick = (name: string): Promise<void> => {
    const job = jobs.get(name);
    if (!job) return Promise.reject(new Error(`no timed job named ${name}`));
    if (stopped) return Promise.resolve();
    const current = running.get(name);
    if (current) return current;
    // `finally` runs after this turn, so the entry is set before it is deleted.
    const run = offer(job).finally(() => running.delete(name));
    running.set(name, run);
    return run;
  };

  return {
    register(job) {
      if (jobs.has(job.name)) throw new Error(`timed job ${job.name} registered twice`);
      if (!(job.intervalMs > 0) || !(job.leaseMs > 0)) throw new RangeError(`bad timing for ${job.name}`);
      jobs.set(job.name, job);
      if (started && !stopped) schedule(job);
    },
    start() {
      if (started || stopped) return;
      started = true;
      for (const job of jobs.values()) schedule(job);
    },
    tick,
    stop() {
      stopped ??= (async () => {
        for (const cancel of cancels.splice(0)) cancel();
        abort.abort();
        await Promise.all(running.values());
      })();
      return stopped;
    },
  };
}
