/**
 * Raising in-app notifications. A notification is a row (so it survives reloads and reaches every
 * device) and a live event (so open portal pages show it at once). Call it inside the transaction that
 * made the change: the notification exists exactly when the change does.
 */
import type { Database } from "~/db/client.server";
import { notifications } from "~/db/schema";
import { publishLiveEvent } from "~/features/live/live-events.server";
import type { NotificationText } from "./messages";

/** A database or an open transaction (Drizzle gives both the same query API). */
type Queryable = Pick<Database, "insert" | "execute">;

export async function raiseNotification(
  db: Queryable,
  userId: string,
  text: NotificationText & { href?: string | null },
): Promise<string> {
  const [row] = await db
    .insert(notifications)
    .values({ userId, title: text.title, message: text.message, type: text.type, href: text.href ?? null })
    .returning({ id: notifications.id });
  await publishLiveEvent(db, { userId, kind: "notification", entityId: row!.id, status: "unread" });
  return row!.id;
}
