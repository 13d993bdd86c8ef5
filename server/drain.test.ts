import type { ServerBuild } from "react-router";
import { describe, expect, it } from "vitest";
import { countRouteWork, createDrain } from "./drain";

function deferred() {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe("createDrain", () => {
  it("is settled at once when nothing is counted", async () => {
    const drain = createDrain();
    expect(drain.draining).toBe(false);
    expect(await drain.settled(0)).toBe(true);
  });

  it("waits for every piece of work begun or tracked, each counted once", async () => {
    const drain = createDrain();
    const done = drain.begin();
    const work = deferred();
    void drain.track(work.promise);
    expect(drain.active).toBe(2);
    let settled = false;
    const waiting = drain.settled(60_000).then((value) => {
      settled = value;
    });
    done();
    done();
    expect(drain.active).toBe(1);
    await Promise.resolve();
    expect(settled).toBe(false);
    work.resolve();
    await waiting;
    expect(settled).toBe(true);
    expect(drain.active).toBe(0);
  });

  it("counts failed work as finished", async () => {
    const drain = createDrain();
    const work = deferred();
    const tracked = drain.track(work.promise);
    work.reject(new Error("query failed"));
    await expect(tracked).rejects.toThrow("query failed");
    expect(await drain.settled(0)).toBe(true);
  });

  it("says false when work is still running after the timeout", async () => {
    const drain = createDrain();
    drain.begin();
    expect(await drain.settled(1)).toBe(false);
    expect(drain.active).toBe(1);
  });

  it("marks the process as stopping", () => {
    const drain = createDrain();
    drain.start();
    expect(drain.draining).toBe(true);
  });
});

describe("countRouteWork", () => {
  const buildWith = (module: Record<string, unknown>) =>
    ({
      routes: { "routes/page": { id: "routes/page", path: "page", module } },
    }) as unknown as ServerBuild;

  it("counts a loader until it settles, also when its caller has stopped waiting", async () => {
    const drain = createDrain();
    const query = deferred();
    const build = buildWith({ loader: () => query.promise, default: () => null });
    const counted = countRouteWork(build, drain);
    const loader = counted.routes["routes/page"]!.module.loader as () => Promise<void>;
    // React Router races a loader against the request's abort signal and stops waiting on an abort.
    const aborted = Promise.race([loader(), Promise.reject(new Error("aborted"))]);
    await expect(aborted).rejects.toThrow("aborted");
    expect(drain.active).toBe(1);
    query.resolve();
    expect(await drain.settled(60_000)).toBe(true);
  });

  it("counts actions, and loaders that answer at once or throw", async () => {
    const drain = createDrain();
    const build = buildWith({
      loader: () => "now",
      action: () => {
        throw new Error("bad input");
      },
    });
    const { module } = countRouteWork(build, drain).routes["routes/page"]!;
    expect((module.loader as () => string)()).toBe("now");
    expect(() => (module.action as () => void)()).toThrow("bad input");
    expect(drain.active).toBe(0);
  });

  it("keeps the rest of each module and wraps a build once", () => {
    const drain = createDrain();
    const component = () => null;
    const build = buildWith({ loader: () => 1, default: component, meta: "m" });
    const counted = countRouteWork(build, drain);
    expect(counted.routes["routes/page"]!.module.default).toBe(component);
    expect(counted.routes["routes/page"]!.module).toMatchObject({ meta: "m" });
    expect(countRouteWork(build, drain)).toBe(counted);
    expect(build.routes["routes/page"]!.module.loader).not.toBe(counted.routes["routes/page"]!.module.loader);
  });
});
