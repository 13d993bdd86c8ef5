/**
 * The bell's notifications (client-portal.md, Notification panel): the latest 10 of a user, newest
 * first; every one is kept, and the notifications page ("See all") pages through them all (ADR 0515).
 * Mark one read, mark all read, remove. Every read and change is scoped by the user's id, and every
 * change is published, so the user's other tabs update too.
 */
import { and, asc, count, desc, eq, type Placeholder, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "~/db/client.server";
import { notifications } from "~/db/schema";
import { type PageInfo, pageInfo } from "~/features/lists/listing";
import { readPage } from "~/features/lists/search.server";
import { publishLiveEvent } from "~/features/live/live-events.server";

/** "Notifications kept: 10." */
export const NOTIFICATIONS_SHOWN = 10;

export interface BellNotification {
  id: string;
  title: string;
  message: string;
  type: string;
  href: string | null;
  read: boolean;
  createdAt: string;
}

export interface Bell {
  notifications: BellNotification[];
  /** Unread among those shown. */
  unread: number;
}

const bellColumns = {
  id: notifications.id,
  title: notifications.title,
  message: notifications.message,
  type: notifications.type,
  href: notifications.href,
  read: notifications.read,
  createdAt: notifications.createdAt,
};

export async function loadBell(db: Database, userId: string): Promise<Bell> {
  const rows = await db
    .select(bellColumns)
    .from(notifications)
    .where(eq(notifications.userId, userId))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(NOTIFICATIONS_SHOWN);
  return bellOf(rows);
}

/** One page of all of a user's notifications, newest first, with how many are unread in all. */
export interface NotificationsPage {
  notifications: BellNotification[];
  unread: number;
  paging: PageInfo;
}

/** The notifications page ("See all"): every notification of the user, paged by the list kit. */
export async function listNotifications(
  db: Database,
  userId: string,
  page: number,
): Promise<NotificationsPage> {
  const mine = eq(notifications.userId, userId);
  const [counted] = await db
    .select({
      total: count(),
      unread: sql<number>`count(*) filter (where not ${notifications.read})`.mapWith(Number),
    })
    .from(notifications)
    .where(mine);
  const paging = pageInfo(page, counted?.total ?? 0);
  const rows = await readPage(paging, ({ limit, offset, reverse }) =>
    db
      .select(bellColumns)
      .from(notifications)
      .where(mine)
      .orderBy(
        ...(reverse
          ? [asc(notifications.createdAt), asc(notifications.id)]
          : [desc(notifications.createdAt), desc(notifications.id)]),
      )
      .limit(limit)
      .offset(offset),
  );
  return { notifications: bellOf(rows).notifications, unread: counted?.unread ?? 0, paging };
}

/** The bell's rows as they come from the database: `createdAt` a Date, or the text of a JSON timestamp. */
type BellRow = Omit<BellNotification, "createdAt"> & { createdAt: Date | string };

export function bellOf(rows: BellRow[]): Bell {
  return {
    notifications: rows.map((r) => ({ ...r, createdAt: new Date(r.createdAt).toISOString() })),
    unread: rows.filter((r) => !r.read).length,
  };
}

/**
 * The same rows as loadBell's, as one JSON array (newest first), for a statement that reads more than
 * the bell (the portal shell's: accounts/portal-shell.server.ts). Read with `bellOf`.
 */
export function bellJson(userId: string | Placeholder): SQL<BellRow[]> {
  return sql<BellRow[]>`(select coalesce(json_agg(json_build_object(
      'id', b.id, 'title', b.title, 'message', b.message, 'type', b.type, 'href', b.href, 'read', b.read,
      'createdAt', b.created_at) order by b.created_at desc, b.id desc), '[]'::json)
    from (select * from ${notifications} where ${notifications.userId} = ${userId}
      order by ${notifications.createdAt} desc, ${notifications.id} desc limit ${NOTIFICATIONS_SHOWN}) b)`;
}

export type BellAction =
  | { intent: "read"; id: string }
  | { intent: "read-all" }
  | { intent: "remove"; id: string };

let bellActionSchema: z.ZodType<BellAction> | undefined;

/** A bell form's post as an action, or null when it is none of the three. */
export function parseBellAction(form: FormData): BellAction | null {
  bellActionSchema ??= z.discriminatedUnion("intent", [
    z.object({ intent: z.literal("read"), id: z.uuid() }),
    z.object({ intent: z.literal("remove"), id: z.uuid() }),
    z.object({ intent: z.literal("read-all") }),
  ]);
  const parsed = bellActionSchema.safeParse(Object.fromEntries(form));
  return parsed.success ? parsed.data : null;
}

/** Applies a bell action; returns false when the notification is not the user's (or does not exist). */
export async function applyBellAction(db: Database, userId: string, action: BellAction): Promise<boolean> {
  return db.transaction(async (tx) => {
    const mine = eq(notifications.userId, userId);
    let changed: Array<{ id: string }>;
    if (action.intent === "read-all") {
      changed = await tx
        .update(notifications)
        .set({ read: true })
        .where(and(mine, eq(notifications.read, false)))
        .returning({ id: notifications.id });
    } else if (action.intent === "read") {
      changed = await tx
        .update(notifications)
        .set({ read: true })
        .where(and(mine, eq(notifications.id, action.id)))
        .returning({ id: notifications.id });
      if (!changed.length) return false;
    } else {
      changed = await tx
        .delete(notifications)
        .where(and(mine, eq(notifications.id, action.id)))
        .returning({ id: notifications.id });
      if (!changed.length) return false;
    }
    if (changed.length) {
      await publishLiveEvent(tx, {
        userId,
        kind: "notification",
        entityId: action.intent === "read-all" ? null : action.id,
        status: action.intent === "remove" ? "removed" : "read",
      });
    }
    return true;
  });
}
