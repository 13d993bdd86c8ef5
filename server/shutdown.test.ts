import { Agent, createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { countRequest, createDrain, type Drain } from "./drain";
import { shutDownInOrder } from "./shutdown";

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((res) => {
    resolve = res;
  });
  return { promise, resolve };
}

const logger = { info() {}, error() {} };

/**
 * A server counting its requests as server/app.ts does. `/slow` starts work (a loader, say) that
 * runs until the test releases it, and answers when it is done.
 */
async function serve(drain: Drain, slow: Promise<void>, started: () => void) {
  const server: Server = createServer((req, res) => {
    countRequest(res, drain);
    if (req.url === "/slow") {
      started();
      void drain.track(slow).then(() => {
        if (!res.destroyed) res.end("slow");
      });
      return;
    }
    res.end("fast");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

function get(port: number, path: string, agent: Agent) {
  return new Promise<{ status: number; connection: string | undefined; body: string }>((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path, agent }, (res) => {
      let body = "";
      res.on("data", (chunk) => {
        body += chunk;
      });
      res.on("end", () => resolve({ status: res.statusCode!, connection: res.headers.connection, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("shutDownInOrder", () => {
  const cleanups: Array<() => void> = [];
  afterEach(() => {
    for (const c of cleanups.splice(0)) c();
  });

  it("answers a request on a kept-alive connection during the drain, with Connection: close", async () => {
    const drain = createDrain();
    const slow = deferred();
    const slowStarted = deferred();
    const { server, port } = await serve(drain, slow.promise, slowStarted.resolve);
    cleanups.push(() => server.closeAllConnections());
    const idle = new Agent({ keepAlive: true, maxSockets: 1 });
    const busy = new Agent({ keepAlive: true, maxSockets: 1 });
    cleanups.push(
      () => idle.destroy(),
      () => busy.destroy(),
    );
    expect((await get(port, "/fast", idle)).connection).toBe("keep-alive");
    const slowAnswer = get(port, "/slow", busy);
    await slowStarted.promise;

    const events: string[] = [];
    const stopping = shutDownInOrder({
      server,
      drain,
      endStreams: () => events.push("streams ended"),
      close: async () => {
        events.push("closed");
      },
      logger,
      timeoutMs: 60_000,
    });
    expect(events).toEqual(["streams ended"]);
    // The idle kept-alive connection is still open: its next request is answered, and it closes after.
    expect(await get(port, "/fast", idle)).toEqual({ status: 200, connection: "close", body: "fast" });
    expect(events).toEqual(["streams ended"]);
    slow.resolve();
    // Begun before the drain, answered during it: its connection closes too.
    expect(await slowAnswer).toEqual({ status: 200, connection: "close", body: "slow" });
    expect(await stopping).toBe("drained");
    expect(events).toEqual(["streams ended", "closed"]);
  });

  it("closes the database only after the work of a request whose client left", async () => {
    const drain = createDrain();
    const slow = deferred();
    const slowStarted = deferred();
    const { server, port } = await serve(drain, slow.promise, slowStarted.resolve);
    cleanups.push(() => server.closeAllConnections());
    const agent = new Agent({ keepAlive: false });
    cleanups.push(() => agent.destroy());
    const req = request({ host: "127.0.0.1", port, path: "/slow", agent });
    req.on("error", () => {});
    req.end();
    await slowStarted.promise;
    // The client goes away: no connection is left, but the request's work goes on.
    req.destroy();
    await new Promise<void>((resolve) => {
      const check = () => server.getConnections((_e, n) => (n === 0 ? resolve() : setImmediate(check)));
      check();
    });

    let closed = false;
    const stopping = shutDownInOrder({
      server,
      drain,
      endStreams: () => {},
      close: async () => {
        closed = true;
      },
      logger,
      timeoutMs: 60_000,
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(drain.active).toBe(1);
    expect(closed).toBe(false);
    slow.resolve();
    expect(await stopping).toBe("drained");
    expect(closed).toBe(true);
  });

  it("after the timeout, cuts the connections still open, closes, and says it was forced", async () => {
    const drain = createDrain();
    const slow = deferred();
    const slowStarted = deferred();
    const { server, port } = await serve(drain, slow.promise, slowStarted.resolve);
    cleanups.push(() => slow.resolve());
    const agent = new Agent({ keepAlive: true });
    cleanups.push(() => agent.destroy());
    const answer = get(port, "/slow", agent).catch((error: NodeJS.ErrnoException) => error.code);
    await slowStarted.promise;
    let closed = false;
    const errors: string[] = [];
    const outcome = await shutDownInOrder({
      server,
      drain,
      endStreams: () => {},
      close: async () => {
        closed = true;
      },
      logger: { info() {}, error: (_obj, msg) => errors.push(msg) },
      timeoutMs: 20,
    });
    expect(outcome).toBe("forced");
    expect(closed).toBe(true);
    expect(errors).toHaveLength(1);
    expect(await answer).toBe("ECONNRESET");
  });
});
