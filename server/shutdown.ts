/**
 * Stopping in order (docs/decisions/0901-shutdown-in-order.md), on SIGTERM or SIGINT:
 * 1. stop accepting connections, but keep the kept-alive ones: a request arriving on one is still
 *    answered, with `Connection: close` (closing them at once dropped requests already on the wire);
 * 2. end the open event streams with a last comment (their browsers reconnect, perhaps elsewhere);
 * 3. wait for the requests in flight and the work they started (loaders of clients that left,
 *    after-response writes) to finish, then close the idle connections;
 * 4. after `timeoutMs` at most, cut what is still open (a forced stop);
 * 5. then `close()`: the workers stop between jobs and the database closes last.
 */
import type { Server } from "node:http";
import { Server as NetServer } from "node:net";
import type { Drain } from "./drain";

export interface ShutdownOptions {
  server: Server;
  drain: Drain;
  /** Ends every open event stream (each with a last comment). */
  endStreams(): void;
  /** Stops the workers and closes the database. */
  close(): Promise<void>;
  logger: { info(obj: object, msg: string): void; error(obj: object, msg: string): void };
  timeoutMs: number;
}

/** Resolves "drained" when everything finished in time, "forced" when open work was cut off. */
export async function shutDownInOrder(options: ShutdownOptions): Promise<"drained" | "forced"> {
  const { server, drain, logger } = options;
  const deadline = Date.now() + options.timeoutMs;
  const left = () => Math.max(0, deadline - Date.now());
  drain.start();
  // net.Server's close, not http.Server's: that one also closes the idle kept-alive connections.
  const connectionsGone = new Promise<void>((resolve) =>
    NetServer.prototype.close.call(server, () => resolve()),
  );
  options.endStreams();
  logger.info({ inFlight: drain.active }, "shutting down: answering the requests in flight");
  let drained = await drain.settled(left());
  if (drained) {
    // Nothing in flight: an idle connection will carry no answer. Those still receiving a request get
    // it answered, with `Connection: close`, and close after it.
    server.closeIdleConnections();
    drained = await within(connectionsGone, left());
    drained = drained && (await drain.settled(left()));
  }
  if (!drained) {
    logger.error(
      { inFlight: drain.active, timeoutMs: options.timeoutMs },
      "shutting down: work still running after the drain timeout; closing its connections",
    );
    server.closeAllConnections();
  }
  await options.close();
  return drained ? "drained" : "forced";
}

function within(promise: Promise<void>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    void promise.then(() => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}
