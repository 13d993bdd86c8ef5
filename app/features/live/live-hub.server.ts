/**
 * The live-updates hub of one process (ARCHITECTURE.md "Live updates"). It LISTENs on LIVE_CHANNEL —
 * on PostgreSQL with one dedicated connection (reconnecting with backoff), on PGlite through its
 * `listen()` — reads the `live_events` rows named by each notification and hands them to the streams
 * of this process that may see them. One hub per process (server/runtime.ts), closed on shutdown.
 */
import { and, gt, inArray, isNull, lt, or, type Placeholder, type SQL, sql } from "drizzle-orm";
import pg from "pg";
import type { Logger } from "pino";
import type { Database, DatabaseHandle } from "~/db/client.server";
import { liveEvents, notifications } from "~/db/schema";
import { LIVE_CHANNEL } from "./live-events.server";

/** What a stream sends for one event (the `data:` of the SSE message, its `id:` is `id`). */
export interface LiveMessage {
  id: number;
  userId: string | null;
  kind: string;
  entityId: string | null;
  status: string | null;
  /** For notification events: what the toast shows. */
  notification?: { title: string; message: string; type: string } | null;
}

export interface LiveSubscriber {
  userId: string;
  deliver(message: LiveMessage): void;
  /** Called when the hub may have missed notifications (its connection dropped): catch up from the log. */
  resync(): void;
  /**
   * Ends the stream (the process is shutting down: its clients reconnect, perhaps to another one),
   * after a last comment saying why when `reason` is given.
   */
  end(reason?: string): void;
}

export interface LiveHub {
  subscribe(subscriber: LiveSubscriber): () => void;
  /**
   * Calls `listener` for every event addressed to everyone (a catalogue change) with its kind, and with
   * null when events may have been missed (the connection dropped). Not counted as a subscriber.
   */
  onBroadcast(listener: (kind: string | null) => void): () => void;
  /** Events of a user (and everyone's) after `afterId`, oldest first; at most `limit`. */
  eventsSince(userId: string, afterId: number, limit?: number): Promise<LiveMessage[]>;
  /** The newest event id a user may see (the cursor a page hands its stream), 0 when none. */
  latestId(userId: string): Promise<number>;
  /** Resolves once the hub listens (tests wait for it before publishing). */
  ready: Promise<void>;
  readonly subscriberCount: number;
  /**
   * Ends every open stream of this process with a last `: shutting down` comment (graceful shutdown:
   * open streams would hold it up) and refuses new ones.
   */
  endStreams(): void;
  /** False once the process is shutting down: new streams are refused (their browsers try again later). */
  readonly accepting: boolean;
  close(): Promise<void>;
}

const MAX_BACKOFF_MS = 30_000;
/** The last comment of a stream ended by a stopping process. */
export const SHUTTING_DOWN = "shutting down";

async function readEvents(
  db: Database,
  where: ReturnType<typeof and>,
  limit: number,
): Promise<LiveMessage[]> {
  const rows = await db
    .select({
      id: liveEvents.id,
      userId: liveEvents.userId,
      kind: liveEvents.kind,
      entityId: liveEvents.entityId,
      status: liveEvents.status,
      title: notifications.title,
      message: notifications.message,
      type: notifications.type,
    })
    .from(liveEvents)
    .leftJoin(
      notifications,
      and(
        sql`${liveEvents.kind} = 'notification'`,
        sql`${notifications.id}::text = ${liveEvents.entityId}`,
        sql`${notifications.userId} = ${liveEvents.userId}`,
      ),
    )
    .where(where)
    .orderBy(liveEvents.id)
    .limit(limit);
  return rows.map(({ title, message, type, ...row }) => ({
    ...row,
    notification: title && message && type ? { title, message, type } : null,
  }));
}

/**
 * The newest event id a user may see, as a scalar subquery (null when none): LiveHub.latestId, and the
 * portal shell's statement (accounts/portal-shell.server.ts) reads it with the rest of the shell.
 */
export function latestIdOf(userId: string | Placeholder): SQL<number | string | null> {
  return sql<number | string | null>`(select max(${liveEvents.id}) from ${liveEvents}
    where ${liveEvents.userId} = ${userId} or ${liveEvents.userId} is null)`;
}

export function createLiveHub(database: DatabaseHandle, logger: Logger, postgresUrl: string | null): LiveHub {
  const { db } = database;
  const subscribers = new Set<LiveSubscriber>();
  const broadcastListeners = new Set<(kind: string | null) => void>();
  const tellBroadcast = (kind: string | null) => {
    for (const listener of broadcastListeners) {
      try {
        listener(kind);
      } catch (error) {
        logger.warn({ err: error }, "live: a broadcast listener failed");
      }
    }
  };
  let closed = false;
  let draining = false;
  let pending = new Set<number>();
  let flushing = false;
  /** The current (or last) read of notified events: closing waits for it. */
  let flushed: Promise<void> = Promise.resolve();

  const fanOut = (message: LiveMessage) => {
    if (message.userId === null) tellBroadcast(message.kind);
    for (const s of subscribers) {
      if (message.userId !== null && message.userId !== s.userId) continue;
      try {
        s.deliver(message);
      } catch (error) {
        logger.warn({ err: error }, "live: a subscriber failed");
      }
    }
  };

  // Notifications arriving together are read with one query.
  const flush = () => {
    if (flushing) return;
    flushing = true;
    flushed = readPending();
  };
  const readPending = async () => {
    try {
      while (pending.size && !closed) {
        const ids = [...pending];
        pending = new Set();
        if (!subscribers.size && !broadcastListeners.size) continue;
        const rows = await readEvents(db, and(inArray(liveEvents.id, ids)), ids.length);
        for (const row of rows) fanOut(row);
      }
    } catch (error) {
      logger.warn({ err: error }, "live: reading events failed");
      for (const s of subscribers) s.resync();
      tellBroadcast(null);
    } finally {
      flushing = false;
    }
  };

  const onNotify = (payload: string | undefined) => {
    const id = Number(payload);
    if (!Number.isSafeInteger(id) || id <= 0) return;
    pending.add(id);
    queueMicrotask(flush);
  };

  let stop: () => Promise<void> = async () => {};
  let ready: Promise<void>;

  if (database.pglite) {
    const pglite = database.pglite;
    ready = pglite.listen(LIVE_CHANNEL, onNotify).then((unlisten) => {
      stop = () => unlisten().catch(() => {});
    });
  } else {
    if (!postgresUrl) throw new Error("live hub: a PostgreSQL URL is needed to listen");
    let client: pg.Client | null = null;
    let retry: NodeJS.Timeout | null = null;
    let backoff = 500;
    let resolveReady!: () => void;
    ready = new Promise((resolve) => {
      resolveReady = resolve;
    });
    let connectedOnce = false;
    const connect = () => {
      if (closed) return;
      const c = new pg.Client({
        connectionString: postgresUrl,
        connectionTimeoutMillis: 5000,
        keepAlive: true,
      });
      client = c;
      const retryLater = (error: unknown) => {
        if (closed || client !== c) return;
        client = null;
        logger.warn({ err: error, retryInMs: backoff }, "live: listener connection lost; reconnecting");
        c.removeAllListeners("notification");
        c.end().catch(() => {});
        retry = setTimeout(connect, backoff);
        retry.unref();
        backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
      };
      c.on("error", retryLater);
      c.on("end", () => retryLater(new Error("connection ended")));
      c.on("notification", (n) => {
        if (n.channel === LIVE_CHANNEL) onNotify(n.payload);
      });
      c.connect()
        .then(() => c.query(`LISTEN ${LIVE_CHANNEL}`))
        .then(() => {
          backoff = 500;
          if (connectedOnce) {
            logger.info("live: listener reconnected");
            // Whatever was published while we were away is in the log: streams catch up from it.
            for (const s of subscribers) s.resync();
            tellBroadcast(null);
          }
          connectedOnce = true;
          resolveReady();
        })
        .catch(retryLater);
    };
    connect();
    stop = async () => {
      if (retry) clearTimeout(retry);
      const c = client;
      client = null;
      if (c) await c.end().catch(() => {});
    };
  }

  return {
    ready,
    get subscriberCount() {
      return subscribers.size;
    },
    onBroadcast(listener) {
      broadcastListeners.add(listener);
      return () => broadcastListeners.delete(listener);
    },
    subscribe(subscriber) {
      subscribers.add(subscriber);
      return () => subscribers.delete(subscriber);
    },
    eventsSince(userId, afterId, limit = 500) {
      return readEvents(
        db,
        and(gt(liveEvents.id, afterId), or(sql`${liveEvents.userId} = ${userId}`, isNull(liveEvents.userId))),
        limit,
      );
    },
    async latestId(userId) {
      const [row] = await db.select({ id: latestIdOf(userId) }).from(sql`(select 1) as one`);
      return Number(row?.id ?? 0);
    },
    get accepting() {
      return !draining && !closed;
    },
    endStreams() {
      draining = true;
      for (const s of [...subscribers]) s.end(SHUTTING_DOWN);
    },
    async close() {
      closed = true;
      for (const s of [...subscribers]) s.end(SHUTTING_DOWN);
      subscribers.clear();
      await stop();
      // Events being read now: the database closes after.
      await flushed;
    },
  };
}

/** Live events are only for short reconnects: older ones go (housekeeping, idempotent on every process). */
export async function pruneLiveEvents(db: Database, olderThanMs = 24 * 60 * 60 * 1000): Promise<void> {
  await db.delete(liveEvents).where(lt(liveEvents.createdAt, new Date(Date.now() - olderThanMs)));
}
