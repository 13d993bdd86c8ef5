/**
 * One client's Server-Sent Events stream (`GET /api/events`): the events of the signed-in user (and
 * everyone's catalogue events), `id:` = the live_events id, a heartbeat comment every few seconds,
 * `Last-Event-ID` resume from the log, and an end when the session ends (signed out here or elsewhere).
 */
import { eq } from "drizzle-orm";
import type { Logger } from "pino";
import type { Database } from "~/db/client.server";
import { session } from "~/db/schema";
import type { LiveHub, LiveMessage } from "./live-hub.server";

export interface EventStreamOptions {
  hub: LiveHub;
  userId: string;
  sessionId: string;
  /** The last event the client has (Last-Event-ID header or `?since=`); null: only new events. */
  lastEventId: number | null;
  heartbeatMs: number;
  sessionCheckMs: number;
  /** Whether the session still exists. */
  sessionAlive(): Promise<boolean>;
  signal: AbortSignal;
  logger: Pick<Logger, "warn" | "debug">;
}

/** Whether a session still exists and has not expired: the stream's periodic check (`sessionAlive`). */
export async function sessionStillValid(db: Database, sessionId: string, now = new Date()): Promise<boolean> {
  const [row] = await db
    .select({ expiresAt: session.expiresAt })
    .from(session)
    .where(eq(session.id, sessionId))
    .limit(1);
  return Boolean(row && row.expiresAt.getTime() > now.getTime());
}

/** How long the browser waits before reconnecting (the SSE `retry:` field). */
export const RECONNECT_MS = 2000;

/** Parses a Last-Event-ID or `since` value: a positive integer, else null. */
export function parseEventId(value: string | null | undefined): number | null {
  if (!value || !/^\d{1,15}$/.test(value.trim())) return null;
  const n = Number(value.trim());
  return n > 0 ? n : null;
}

/** The SSE wire format of one event. */
export function formatEvent(message: LiveMessage): string {
  const { userId: _user, ...data } = message;
  const event = message.kind === "session" ? "signed-out" : "change";
  return `id: ${message.id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

export function openEventStream(options: EventStreamOptions): Response {
  const { hub, userId, sessionId, signal, logger } = options;
  const encoder = new TextEncoder();
  let cursor = options.lastEventId ?? 0;
  const sent = new Set<number>();
  let closed = false;
  let catchingUp = false;
  let buffered: LiveMessage[] = [];
  let cleanup = () => {};

  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const write = (text: string) => {
        if (closed) return;
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          end();
        }
      };
      const end = (reason?: string) => {
        if (closed) return;
        if (reason) write(`: ${reason}\n\n`);
        closed = true;
        cleanup();
        try {
          controller.close();
        } catch {
          // already closed by the client
        }
      };
      const send = (message: LiveMessage) => {
        if (sent.has(message.id)) return;
        sent.add(message.id);
        // Bounded memory: ids far below the cursor can no longer come twice.
        if (sent.size > 1000) for (const id of [...sent].slice(0, 500)) sent.delete(id);
        cursor = Math.max(cursor, message.id);
        write(formatEvent(message));
        if (message.kind === "session" && message.entityId === sessionId) end();
      };
      const deliver = (message: LiveMessage) => {
        if (message.kind === "session" && message.entityId !== sessionId) return;
        if (catchingUp) buffered.push(message);
        else send(message);
      };
      const catchUp = async (from: number) => {
        catchingUp = true;
        try {
          for (const message of await hub.eventsSince(userId, from)) {
            if (message.kind === "session" && message.entityId !== sessionId) continue;
            send(message);
          }
        } catch (error) {
          logger.warn({ err: error }, "live: catching up failed");
        } finally {
          catchingUp = false;
          const held = buffered;
          buffered = [];
          for (const message of held) send(message);
        }
      };

      const unsubscribe = hub.subscribe({
        userId,
        deliver,
        resync: () => void catchUp(cursor),
        end: (reason) => end(reason),
      });
      const heartbeat = setInterval(() => write(`: heartbeat ${Date.now()}\n\n`), options.heartbeatMs);
      const sessionCheck = setInterval(() => {
        options
          .sessionAlive()
          .then((alive) => {
            if (!alive) end();
          })
          .catch((error: unknown) => logger.debug({ err: error }, "live: session check failed"));
      }, options.sessionCheckMs);
      heartbeat.unref?.();
      sessionCheck.unref?.();
      const onAbort = () => end();
      signal.addEventListener("abort", onAbort);
      cleanup = () => {
        unsubscribe();
        clearInterval(heartbeat);
        clearInterval(sessionCheck);
        signal.removeEventListener("abort", onAbort);
      };
      if (signal.aborted) {
        end();
        return;
      }

      write(`retry: ${RECONNECT_MS}\n: connected\n\n`);
      if (options.lastEventId !== null) void catchUp(options.lastEventId);
      else {
        // A fresh stream starts at the newest event: a later catch-up (after the hub reconnects)
        // replays only what came after it.
        hub
          .latestId(userId)
          .then((id) => {
            cursor = Math.max(cursor, id);
          })
          .catch((error: unknown) => logger.warn({ err: error }, "live: reading the cursor failed"));
      }
    },
    cancel() {
      closed = true;
      cleanup();
    },
  });

  return new Response(stream, {
    headers: {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-store",
      Connection: "keep-alive",
      // Tells nginx-style proxies not to buffer the stream.
      "X-Accel-Buffering": "no",
    },
  });
}
