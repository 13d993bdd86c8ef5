/**
 * SIGTERM in the middle of a burst: the production server (`node server.js`) is serving signed-in
 * clients' dashboards and checkouts, with event streams open, when it is told to stop. It must answer
 * every request it had accepted (none gets a 5xx, none is dropped), also one arriving during the drain
 * on a kept-alive connection, end the streams with a last comment, let the loaders of clients who gave
 * up finish, stop its workers, close the database last and exit 0
 * (docs/decisions/0901-shutdown-in-order.md).
 *
 * "Accepted" is what the server read: a request that got an answer, or one whose id (X-Request-Id, sent
 * by the test) is in the server's request log. A request refused at connect (the server no longer
 * listens) or sent on a kept-alive connection the server had closed as idle was never read: a client
 * may send it again, elsewhere, so it is counted apart and is fine.
 */
import { Agent, request } from "node:http";
import { describe, expect, it } from "vitest";
import { location, type Session } from "../support/browserless";
import { faultRig } from "../support/fault-rig";
import {
  CHECKOUT_SERVICE,
  checkoutToken,
  faultDatabases,
  phases,
  readCheckout,
  registerClient,
  report,
} from "../support/faults";
import { EventReader } from "../support/portal";
import { eventually } from "../support/smtp";

const CLIENTS = 4;
/** Per client: workers loading the dashboard, and workers buying (purchase page, then the form). */
const DASHBOARD_WORKERS = 3;
const CHECKOUT_WORKERS = 2;
/** Answers in the burst before the signal: the burst is well under way, requests are in flight. */
const SIGNAL_AFTER = 40;
/** No answer, and never read by the server: refused at connect, or its kept-alive connection closed. */
const NOT_READ = new Set(["ECONNREFUSED", "UND_ERR_SOCKET", "ECONNRESET", "EPIPE"]);
/** What a query meets when the database was closed under it. */
const CLOSED_DATABASE = [
  "Cannot use a pool after calling end on the pool",
  "PGlite is closed",
  "PGlite is closing",
];
const PURCHASE = `/client/purchase/${CHECKOUT_SERVICE}`;

interface Attempt {
  id: string;
  what: "dashboard" | "purchase page" | "checkout";
  sentAfterSignal: boolean;
  /** 0: no answer. */
  status: number;
  /** The answer's Connection header. */
  connection: string | null;
  /** Why there was no answer (the error's code). */
  error: string | null;
  checkout: { orderId: string } | null;
  /** In flight when the signal came, and given up by its client then (a visitor closing the tab). */
  abandoned: boolean;
}

interface RawAnswer {
  status: number;
  connection: string | undefined;
  location: string | undefined;
}

function errorCode(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? String(error);
}

function whenAborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) =>
    signal.addEventListener("abort", () => reject(signal.reason), { once: true }),
  );
}

/** Reads a node:http answer to its end. */
function answerOf(req: ReturnType<typeof request>): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    req.on("response", (res) => {
      res.resume();
      res.on("end", () =>
        resolve({
          status: res.statusCode!,
          connection: res.headers.connection,
          location: res.headers.location,
        }),
      );
    });
    req.on("error", reject);
  });
}

describe.each(faultDatabases)("SIGTERM in the middle of a burst on %s", (kind) => {
  const rig = faultRig();

  it("answers every request it accepted, ends the event streams, and exits 0", async () => {
    const time = phases();
    const { db, smtp, env } = await rig.databaseAndMail(kind);
    const running = await rig.server(env, "server");
    const { hostname: host, port } = new URL(running.url);
    time.mark("start");

    const clients: Session[] = [];
    for (let i = 0; i < CLIENTS; i++)
      clients.push((await registerClient(running.url, smtp, `${kind}.shutdown.${i}`)).session);
    const first = clients[0]!;
    // Two clients hold their event stream open through the shutdown.
    const streams: EventReader[] = [];
    for (const session of clients.slice(0, 2)) {
      const res = await fetch(new URL("/api/events", running.url), {
        headers: { cookie: session.cookieHeader },
      });
      expect(res.status).toBe(200);
      const stream = new EventReader(res);
      streams.push(stream);
      rig.closeAtEnd(() => stream.close());
      await stream.until(() => stream.comments.includes("connected"), "the connected comment");
    }
    time.mark("sign-ups");

    // A client with a kept-alive connection, idle when the signal comes; it sends again during the drain.
    const keptAlive = new Agent({ keepAlive: true, maxSockets: 1 });
    rig.closeAtEnd(() => keptAlive.destroy());
    const dashboard = () => {
      const req = request({
        host,
        port,
        path: "/client/dashboard",
        agent: keptAlive,
        headers: { cookie: first.cookieHeader },
      });
      req.end();
      return answerOf(req);
    };
    const before = await dashboard();
    expect(before).toMatchObject({ status: 200, connection: "keep-alive" });
    // A checkout whose form is still on its way when the signal comes: the server has read its headers
    // (it said 100 Continue) and waits for the body. It holds the drain open until the test sends it.
    const token = await checkoutToken(first);
    const form = new URLSearchParams({ checkoutToken: token, currency: "USD" }).toString();
    const held = request({
      host,
      port,
      path: PURCHASE,
      method: "POST",
      agent: new Agent({ keepAlive: true }),
      headers: {
        cookie: first.cookieHeader,
        origin: new URL(running.url).origin,
        "content-type": "application/x-www-form-urlencoded",
        "content-length": String(Buffer.byteLength(form)),
        expect: "100-continue",
      },
    });
    const heldAnswer = answerOf(held).catch((error: NodeJS.ErrnoException) => ({ error: error.code }));
    await new Promise<void>((resolve) => held.once("continue", resolve));

    const attempts: Attempt[] = [];
    let answers = 0;
    let inFlight = 0;
    let inFlightAtSignal = -1;
    let signalled = false;
    let refused = false;
    let n = 0;
    const open = new Set<{ attempt: Attempt; controller: AbortController }>();
    const send = async (
      session: Session,
      what: Attempt["what"],
      path: string,
      fields?: Record<string, string>,
    ): Promise<{ attempt: Attempt; body: string }> => {
      const attempt: Attempt = {
        id: `shutdown-${kind}-${++n}`,
        what,
        sentAfterSignal: signalled,
        status: 0,
        connection: null,
        error: null,
        checkout: null,
        abandoned: false,
      };
      attempts.push(attempt);
      const controller = new AbortController();
      const entry = { attempt, controller };
      open.add(entry);
      let body = "";
      inFlight++;
      try {
        const res = await fetch(new URL(path, running.url), {
          method: fields ? "POST" : "GET",
          redirect: "manual",
          signal: controller.signal,
          body: fields ? new URLSearchParams(fields) : undefined,
          headers: {
            cookie: session.cookieHeader,
            "x-request-id": attempt.id,
            ...(fields
              ? { origin: new URL(running.url).origin, "content-type": "application/x-www-form-urlencoded" }
              : {}),
          },
        });
        attempt.status = res.status;
        attempt.connection = res.headers.get("connection");
        // undici may leave a body read pending for ever when its request is aborted: stop waiting then.
        body = await Promise.race([res.text(), whenAborted(controller.signal)]);
        if (res.status === 302 && what === "checkout") attempt.checkout = readCheckout(location(res));
      } catch (error) {
        attempt.error = errorCode(error);
        if (attempt.error === "ECONNREFUSED") refused = true;
      } finally {
        inFlight--;
        open.delete(entry);
      }
      if (attempt.status > 0 && ++answers >= SIGNAL_AFTER && !signalled) {
        // Sent while others are being served, never after a pause.
        signalled = true;
        inFlightAtSignal = inFlight;
        running.child.kill("SIGTERM");
        // The clients of the requests in flight give up on them: the server goes on running their
        // loaders and actions, and must not close the database under them.
        for (const other of open) {
          other.attempt.abandoned = true;
          other.controller.abort();
        }
      }
      return { attempt, body };
    };

    // Every worker goes on until the server refuses its connection (it no longer listens).
    const dashboardWorker = async (session: Session) => {
      while (!refused) await send(session, "dashboard", "/client/dashboard");
    };
    const checkoutWorker = async (session: Session) => {
      while (!refused) {
        const page = await send(session, "purchase page", PURCHASE);
        const found = page.body.match(/name="checkoutToken" value="([^"]+)"/)?.[1];
        if (!found) continue;
        await send(session, "checkout", PURCHASE, { checkoutToken: found, currency: "USD" });
      }
    };
    const burst = Promise.all(
      clients.flatMap((session) => [
        ...Array.from({ length: DASHBOARD_WORKERS }, () => dashboardWorker(session)),
        ...Array.from({ length: CHECKOUT_WORKERS }, () => checkoutWorker(session)),
      ]),
    );

    // Once the server is draining, the kept-alive connection carries one more request: answered, with
    // Connection: close. Then the held form is sent: answered too.
    await eventually(
      () => signalled && running.logs().some((l) => String(l.msg).startsWith("shutting down")),
    );
    const during = await dashboard().catch((error: NodeJS.ErrnoException) => ({ error: error.code }));
    expect(during).toEqual({ status: 200, connection: "close", location: undefined });
    held.end(form);
    const checkout = await heldAnswer;
    expect(checkout).toMatchObject({ status: 302, connection: "close" });
    if (!("location" in checkout)) throw new Error("the held checkout got no answer");
    await burst;
    time.mark("burst");
    const code = await running.exited;
    time.mark("exit");

    expect(inFlightAtSignal).toBeGreaterThan(0);
    const logs = running.logs();
    const logged = new Set(logs.map((l) => (l.req as { id?: string } | undefined)?.id).filter(Boolean));
    const abandoned = attempts.filter((a) => a.abandoned);
    const kept = attempts.filter((a) => !a.abandoned);
    const accepted = kept.filter((a) => a.status > 0 || logged.has(a.id));
    const notRead = kept.filter((a) => a.status === 0 && !logged.has(a.id));
    // Every request the server read was answered, and never with a 5xx.
    expect(accepted.filter((a) => a.status === 0 || a.status >= 500)).toEqual([]);
    expect(accepted.filter((a) => a.status !== 200 && a.status !== 302)).toEqual([]);
    // The others were refused at connect (or met a kept-alive connection the server had closed).
    expect(notRead.filter((a) => !NOT_READ.has(a.error ?? ""))).toEqual([]);
    // Answers sent while stopping close their connection.
    const answeredInDrain = accepted.filter((a) => a.sentAfterSignal);
    expect(answeredInDrain.filter((a) => a.connection !== "close")).toEqual([]);

    // The streams got a last word and ended.
    for (const stream of streams) {
      await stream.until(() => stream.ended, "the end of the stream");
      expect(stream.comments.at(-1)).toBe("shutting down");
    }

    // The database closed after everything that used it, and the process says it stopped cleanly.
    const text = logs.map((l) => JSON.stringify(l)).join("\n");
    for (const message of CLOSED_DATABASE) expect(text).not.toContain(message);
    expect(logs.filter((l) => typeof l.level === "number" && l.level >= 50)).toEqual([]);
    expect(logs.find((l) => l.msg === "stopped")).toMatchObject({ outcome: "drained" });
    expect(code).toBe(0);

    // Each checkout answered made its order; an abandoned one may have made one too, nothing else did.
    const orders = (await db.query<{ id: string }>("select id from orders")).map((o) => o.id);
    const told = [
      ...attempts.filter((a) => a.checkout).map((a) => a.checkout!.orderId),
      readCheckout(checkout.location!).orderId,
    ];
    expect(orders).toEqual(expect.arrayContaining(told));
    const abandonedCheckouts = abandoned.filter((a) => a.what === "checkout").length;
    expect(orders.length - told.length).toBeLessThanOrEqual(abandonedCheckouts);

    report(
      `SIGTERM on ${kind}: ${attempts.length} requests in the burst, ${inFlightAtSignal} in flight at the ` +
        `signal and given up by their clients, ${accepted.length} accepted (${answeredInDrain.length} sent ` +
        `after the signal), ${notRead.length} not read (${[...new Set(notRead.map((a) => a.error))].join(", ")}), ` +
        `${told.length} checkouts answered, ${orders.length} orders; ${time}`,
    );
  });
});
