/**
 * The back office's view of the audit log (features/audit writes it): a searchable, paged list.
 */

import { and, count, desc, eq, ilike, or } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { auditLog } from "~/db/schema";
import { escapeLike } from "~/features/lists/escape-like";
import { type Paged, pageOffset } from "./paging";

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

// In a neutral module (the quote requests' list searches too); re-exported for the back office's lists.
export { escapeLike };
