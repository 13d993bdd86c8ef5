/**
 * The outbox worker: one per process, started by the runtime and stopped before the database closes.
 * It polls every `pollIntervalMs` and runs at once when woken after an email is queued.
 */
import type { Logger } from "pino";
import type { Database } from "~/db/client.server";
import { claimDueEmails, markEmailAttemptFailed, markEmailDelivered } from "./outbox.server";
import type { MailTransport } from "./transport.server";

/** The default lease: a minute, longer than the SMTP transport's timeouts add up to. */
export const OUTBOX_LEASE_MS = 60_000;

export interface OutboxWorker {
  /** Looks for due emails now (call after the transaction that queued one has committed). */
  wake(): void;
  /** Runs until no email is due; resolves when done (tests, scripts). */
  drain(): Promise<void>;
  /** Stops polling and waits for a send in progress. */
  stop(): Promise<void>;
}

export interface OutboxWorkerOptions {
  db: Database;
  transport: MailTransport;
  logger: Logger;
  maxAttempts: number;
  retryBaseMs: number;
  pollIntervalMs: number;
  /**
   * How long a claim holds; must exceed the transport's worst-case send time (SMTP: 10 s to connect,
   * 10 s for the greeting, 30 s of socket silence). After a worker dies, its emails wait this long.
   */
  leaseMs?: number;
  batchSize?: number;
}

export function startOutboxWorker(options: OutboxWorkerOptions): OutboxWorker {
  const { db, transport, logger, pollIntervalMs } = options;
  const leaseMs = options.leaseMs ?? OUTBOX_LEASE_MS;
  const batchSize = options.batchSize ?? 10;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | null = null;
  let again = false;

  async function sendBatch(): Promise<number> {
    const claimed = await claimDueEmails(db, batchSize, leaseMs);
    for (const email of claimed) {
      try {
        const { messageId } = await transport.send(email);
        await markEmailDelivered(db, email.id, { messageId, captured: transport.kind === "capture" });
        logger.info({ outboxId: email.id, kind: email.kind, transport: transport.kind }, "email delivered");
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        const status = await markEmailAttemptFailed(db, email, message, options);
        logger[status === "failed" ? "error" : "warn"](
          { outboxId: email.id, kind: email.kind, attempts: email.attempts, err: message },
          status === "failed" ? "email failed for good" : "email attempt failed; will retry",
        );
      }
    }
    return claimed.length;
  }

  function schedule() {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(() => void run(), pollIntervalMs);
    timer.unref();
  }

  function run(): Promise<void> {
    if (stopped) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      try {
        do {
          again = false;
          while (!stopped && (await sendBatch()) === batchSize) {}
        } while (again && !stopped);
      } catch (error) {
        logger.error({ err: error }, "outbox worker pass failed");
      } finally {
        running = null;
        schedule();
      }
    })();
    return running;
  }

  // Right away: emails left by a previous run (or another process) go out without waiting a poll.
  void run();
  return {
    wake: () => void run(),
    drain: () => run(),
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
      transport.close();
    },
  };
}
