/**
 * Publishing live events (ARCHITECTURE.md "Live updates"): every state change a client should see at
 * once is a `live_events` row plus a `pg_notify` on LIVE_CHANNEL, in the caller's transaction.
 * PostgreSQL delivers the notification to every listening process on commit (and never for a rolled
 * back change); the row lets a stream that reconnects with Last-Event-ID catch up on what it missed.
 */
import { sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { liveEvents } from "~/db/schema";

export const LIVE_CHANNEL = "portico_live";

/**
 * `session`: a session ended (sign-out); the stream of that session closes. `message`: an order's
 * conversation changed (a new message, or the other side read it); `brief`: an order's brief was
 * answered. Both carry the order's id.
 */
export type LiveEventKind =
  | "order"
  | "invoice"
  | "notification"
  | "catalogue"
  | "session"
  | "message"
  | "brief"
  | "quote"
  /** A watched domain was checked (issue 39): its id and worst verdict. */
  | "domain";

export interface LiveEventInput {
  /** Whose event it is; null for one every signed-in user may see (a catalogue change). */
  userId: string | null;
  kind: LiveEventKind;
  entityId?: string | null;
  status?: string | null;
}

type Queryable = Pick<Database, "insert" | "execute">;

/** Records the event and notifies every process on commit. Returns the event's id. */
export async function publishLiveEvent(db: Queryable, event: LiveEventInput): Promise<number> {
  const [row] = await db
    .insert(liveEvents)
    .values({
      userId: event.userId,
      kind: event.kind,
      entityId: event.entityId ?? null,
      status: event.status ?? null,
    })
    .returning({ id: liveEvents.id });
  await db.execute(sql`select pg_notify(${LIVE_CHANNEL}, ${String(row!.id)})`);
  return row!.id;
}
