/**
 * What a stopping process waits for before it closes the database (docs/decisions/0901-shutdown-in-order.md):
 * every request still open, and every loader, action or after-response task still running, also after
 * its client went away. React Router stops waiting for the loaders of a request whose client left (it
 * races them against the request's abort signal), but they go on running and querying: counting open
 * requests alone closed the pool under them.
 */
import type { ServerResponse } from "node:http";
import type { ServerBuild } from "react-router";

export interface Drain {
  /** Counts one piece of work until the returned function is called (calling it again does nothing). */
  begin(): () => void;
  /** Counts `work` until it settles; returns it. */
  track<T>(work: Promise<T>): Promise<T>;
  /** Work counted now. */
  readonly active: number;
  /** True once the process is stopping: answers say `Connection: close`. */
  readonly draining: boolean;
  /** Marks the process as stopping. */
  start(): void;
  /** Resolves true once no work is counted (at once if none is), false if some still is after `timeoutMs`. */
  settled(timeoutMs: number): Promise<boolean>;
}

export function createDrain(): Drain {
  let active = 0;
  let draining = false;
  let waiters: Array<() => void> = [];
  const end = () => {
    active--;
    if (active > 0) return;
    const woken = waiters;
    waiters = [];
    for (const wake of woken) wake();
  };
  const begin = () => {
    active++;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      end();
    };
  };
  return {
    begin,
    track(work) {
      const done = begin();
      work.then(done, done);
      return work;
    },
    get active() {
      return active;
    },
    get draining() {
      return draining;
    },
    start() {
      draining = true;
    },
    settled(timeoutMs) {
      if (active === 0) return Promise.resolve(true);
      return new Promise((resolve) => {
        const timer = setTimeout(
          () => {
            waiters = waiters.filter((w) => w !== wake);
            resolve(false);
          },
          Math.max(0, timeoutMs),
        );
        const wake = () => {
          clearTimeout(timer);
          resolve(true);
        };
        waiters.push(wake);
      });
    },
  };
}

/**
 * Counts a request until its answer is sent or its client has gone. An answer whose headers go out
 * while the process is stopping says `Connection: close` (also for a request that began before), so
 * the client sends its next request on a new connection, to a process that accepts it.
 */
export function countRequest(res: ServerResponse, drain: Drain): void {
  res.once("close", drain.begin());
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, ...args: Parameters<ServerResponse["writeHead"]>) {
    if (drain.draining) this.setHeader("Connection", "close");
    return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
  } as ServerResponse["writeHead"];
}

type RouteFunction = (...args: never[]) => unknown;

/**
 * The same build with every route's loader and action counted by `drain` until it settles, whether or
 * not React Router still waits for it. Each build is wrapped once.
 */
export function countRouteWork(build: ServerBuild, drain: Drain): ServerBuild {
  const cached = wrapped.get(build);
  if (cached?.drain === drain) return cached.build;
  const count = <F extends RouteFunction | undefined>(fn: F): F =>
    (fn &&
      ((...args: Parameters<NonNullable<F>>) => {
        const done = drain.begin();
        try {
          const result = (fn as RouteFunction)(...args);
          if (result instanceof Promise) result.then(done, done);
          else done();
          return result;
        } catch (error) {
          done();
          throw error;
        }
      })) as F;
  const routes: ServerBuild["routes"] = {};
  for (const [id, route] of Object.entries(build.routes)) {
    if (!route) continue;
    const { module } = route;
    if (!module.loader && !module.action) {
      routes[id] = route;
      continue;
    }
    const counted = { ...module };
    if (module.loader) counted.loader = count(module.loader);
    if (module.action) counted.action = count(module.action);
    routes[id] = { ...route, module: counted };
  }
  const result = { ...build, routes };
  wrapped.set(build, { drain, build: result });
  return result;
}

const wrapped = new WeakMap<ServerBuild, { drain: Drain; build: ServerBuild }>();
