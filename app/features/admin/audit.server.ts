/**
 * The audit log of the back office: every change an admin makes is one row, written in the same
 * transaction as the change (who, what, on which entity, the state before and after, when).
 */
import { and, count, desc, eq, ilike, or } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { auditLog } from "~/db/schema";
import { type Paged, pageOffset } from "./paging";

/** Who acts: the signed-in admin, or the command line for `admin:create`. */
export interface Actor {
  id: string | null;
  email: string;
}

type Insertable = Pick<Database, "insert">;

export async function recordAudit(
  db: Insertable,
  actor: Actor,
  entry: { action: string; entity: string; entityId?: string | null; before?: unknown; after?: unknown },
): Promise<void> {
  await db.insert(auditLog).values({
    actorId: actor.id,
    actorEmail: actor.email,
    action: entry.action,
    entity: entry.entity,
    entityId: entry.entityId ?? null,
    before: entry.before ?? null,
    after: entry.after ?? null,
  });
}

export async function listAudit(
  db: Database,
  filter: { q: string; entity: string | null; page: number },
): Promise<Paged<typeof auditLog.$inferSelect>> {
  const where = and(
    filter.entity ? eq(auditLog.entity, filter.entity) : undefined,
    filter.q
      ? or(
          ilike(auditLog.actorEmail, `%${escapeLike(filter.q)}%`),
          ilike(auditLog.action, `%${escapeLike(filter.q)}%`),
          eq(auditLog.entityId, filter.q),
        )
      : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(auditLog)
      .where(where)
      .orderBy(desc(auditLog.at), desc(auditLog.id))
      .limit(pageOffset(filter.page).limit)
      .offset(pageOffset(filter.page).offset),
    db.select({ n: count() }).from(auditLog).where(where),
  ]);
  return { rows, total: total?.n ?? 0, page: filter.page };
}

/** `%` and `_` typed into a search box are literal characters, not patterns. */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}
