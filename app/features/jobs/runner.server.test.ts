/**
 * The periodic-job runner on the in-memory database, with a clock the test sets and ticks the test
 * calls (never real time): one run per tick across two runners sharing the database (the lease), a
 * failure logged and retried next tick, and a stop that waits for the running job.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type Database, type DatabaseHandle, queryRows } from "~/db/client.server";
import { openSeededMemoryDatabase } from "~/features/testing/memory-database.server";
import { acquireLease, releaseLease } from "./leases.server";
import { createJobRunner, type JobRun, type PeriodicJob, type Ticker } from "./runner.server";

const MINUTE = 60_000;
const base = new Date("2026-11-27T10:00:00Z");

/** A promise the test settles by hand (a job that runs until the test lets it finish). */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

/** A logger that keeps its warnings. */
function memoryLogger() {
  const warnings: Array<{ obj: Record<string, unknown>; msg: string }> = [];
  return { warnings, warn: (obj: object, msg: string) => warnings.push({ obj: { ...obj }, msg }) };
}

/** A ticker that only remembers what it was asked to call, for the test to call. */
function manualTicker() {
  const timers = new Map<number, { ms: number; tick: () => void; cancelled: boolean }>();
  let next = 0;
  const ticker: Ticker = {
    every(ms, tick) {
      const id = next++;
      timers.set(id, { ms, tick, cancelled: false });
      return () => {
        timers.get(id)!.cancelled = true;
      };
    },
  };
  return { ticker, timers: () => [...timers.values()] };
}

const leaseHolder = async (db: Database, name: string) =>
  (await queryRows<{ holder: string }>(db, sql`select holder from job_leases where name = ${name}`))[0]
    ?.holder ?? null;

describe("the periodic-job runner", () => {
  let handle: DatabaseHandle;
  let db: Database;
  let clock: Date;
  const now = () => clock;

  beforeAll(async () => {
    handle = await openSeededMemoryDatabase();
    db = handle.db;
  });
  afterAll(async () => {
    await handle?.close();
  });
  beforeEach(async () => {
    clock = base;
    await db.execute(sql`delete from job_leases`);
  });

  const job = (name: string, run: (r: JobRun) => Promise<void>): PeriodicJob => ({
    name,
    intervalMs: MINUTE,
    leaseMs: 5 * MINUTE,
    run,
  });

  it("runs a job once per tick across two runners sharing the database (the lease)", async () => {
    const runs: Array<{ holder: string; now: Date }> = [];
    let release = gate();
    const work = job("shared", async (r) => {
      runs.push({ holder: r.holder, now: r.now });
      await release.opened;
    });
    const a = createJobRunner({ db, logger: memoryLogger(), now, holder: "process-a" });
    const b = createJobRunner({ db, logger: memoryLogger(), now, holder: "process-b" });
    a.register(work);
    b.register(work);

    // Both offer at the same tick: A takes the lease, B finds it held and does nothing.
    const first = a.tick("shared");
    await expect.poll(() => runs.length).toBe(1);
    expect(await leaseHolder(db, "shared")).toBe("process-a");
    await b.tick("shared");
    expect(runs).toEqual([{ holder: "process-a", now: base }]);
    release.open();
    await first;
    expect(await leaseHolder(db, "shared")).toBeNull();

    // Next tick, B offers first and runs it; A, a moment later, does not.
    clock = new Date(base.getTime() + MINUTE);
    release = gate();
    const second = b.tick("shared");
    await expect.poll(() => runs.length).toBe(2);
    await a.tick("shared");
    release.open();
    await second;
    expect(runs.map((r) => r.holder)).toEqual(["process-a", "process-b"]);
    expect(runs[1]!.now).toEqual(clock);
    await Promise.all([a.stop(), b.stop()]);
  });

  it("does not start a job again on its own runner while it still runs", async () => {
    let count = 0;
    const release = gate();
    const runner = createJobRunner({ db, logger: memoryLogger(), now, holder: "solo" });
    runner.register(
      job("slow", async () => {
        count++;
        await release.opened;
      }),
    );
    const first = runner.tick("slow");
    const again = runner.tick("slow");
    release.open();
    await Promise.all([first, again]);
    expect(count).toBe(1);
    await runner.stop();
  });

  it("takes over a lease its holder left behind once the lease expires, by the injected clock", async () => {
    let count = 0;
    const runner = createJobRunner({ db, logger: memoryLogger(), now, holder: "survivor" });
    runner.register(
      job("orphaned", async () => {
        count++;
      }),
    );
    expect(await acquireLease(db, "orphaned", "dead-process", base, 5 * MINUTE)).toBe(true);
    await runner.tick("orphaned");
    expect(count).toBe(0);
    clock = new Date(base.getTime() + 5 * MINUTE);
    await runner.tick("orphaned");
    expect(count).toBe(1);
    await runner.stop();
  });

  it("logs a failing job without throwing, releases its lease, and runs it again next tick", async () => {
    const logger = memoryLogger();
    let count = 0;
    const runner = createJobRunner({ db, logger, now, holder: "flaky" });
    runner.register(
      job("flaky-job", async () => {
        count++;
        if (count === 1) throw Object.assign(new Error("relay down"), { code: "ECONNREFUSED" });
      }),
    );
    await expect(runner.tick("flaky-job")).resolves.toBeUndefined();
    expect(logger.warnings).toHaveLength(1);
    expect(logger.warnings[0]!.msg).toBe("timed job failed");
    expect(logger.warnings[0]!.obj.job).toBe("flaky-job");
    expect((logger.warnings[0]!.obj.err as Error).message).toBe("relay down");
    // The lease went with the failed run: another process could take the next tick.
    expect(await leaseHolder(db, "flaky-job")).toBeNull();
    await runner.tick("flaky-job");
    expect(count).toBe(2);
    expect(logger.warnings).toHaveLength(1);
    await runner.stop();
  });

  it("logs a lease that cannot be taken (the database is down) as a failure of that tick", async () => {
    const logger = memoryLogger();
    const broken = {
      execute: () => Promise.reject(new Error("connection refused")),
    } as unknown as Database;
    let count = 0;
    const runner = createJobRunner({ db: broken, logger, now, holder: "offline" });
    runner.register(
      job("offline-job", async () => {
        count++;
      }),
    );
    await runner.tick("offline-job");
    expect(count).toBe(0);
    expect(logger.warnings.map((w) => w.obj.job)).toEqual(["offline-job"]);
    await runner.stop();
  });

  it("waits on stop for the running job, which is told to stop, then runs nothing more", async () => {
    const release = gate();
    const seen: { stopping?: boolean; aborted?: boolean } = {};
    let count = 0;
    const { ticker, timers } = manualTicker();
    const runner = createJobRunner({ db, logger: memoryLogger(), now, holder: "stopping", ticker });
    runner.register(
      job("long", async (r) => {
        count++;
        await release.opened;
        seen.stopping = r.stopping();
        seen.aborted = r.signal.aborted;
      }),
    );
    runner.start();
    expect(timers().map((t) => t.ms)).toEqual([MINUTE]);
    timers()[0]!.tick();
    await expect.poll(() => count).toBe(1);

    let stopped = false;
    const stopping = runner.stop().then(() => {
      stopped = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(stopped).toBe(false);
    expect(timers()[0]!.cancelled).toBe(true);
    release.open();
    await stopping;
    expect(seen).toEqual({ stopping: true, aborted: true });
    // The lease was released before stop resolved: the database may close now.
    expect(await leaseHolder(db, "long")).toBeNull();
    await runner.tick("long");
    expect(count).toBe(1);
    await runner.stop();
  });

  it("starts the ticks of every job at its own interval, including one registered after start", async () => {
    const { ticker, timers } = manualTicker();
    const runner = createJobRunner({ db, logger: memoryLogger(), now, holder: "timers", ticker });
    runner.register({ ...job("one", async () => {}), intervalMs: 1000 });
    expect(timers()).toHaveLength(0);
    runner.start();
    runner.register({ ...job("two", async () => {}), intervalMs: 2000 });
    expect(timers().map((t) => t.ms)).toEqual([1000, 2000]);
    expect(() => runner.register(job("one", async () => {}))).toThrow(/twice/);
    await runner.stop();
    expect(timers().every((t) => t.cancelled)).toBe(true);
  });

  it("renews its own lease when the job takes the same lease itself", async () => {
    const runner = createJobRunner({ db, logger: memoryLogger(), now, holder: "nested" });
    let inner = false;
    runner.register(
      job("nested-job", async (r) => {
        inner = await acquireLease(db, "nested-job", r.holder, r.now, MINUTE);
        await releaseLease(db, "nested-job", r.holder);
      }),
    );
    await runner.tick("nested-job");
    expect(inner).toBe(true);
    await runner.stop();
  });
});
