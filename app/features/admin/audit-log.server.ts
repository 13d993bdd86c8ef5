/**
 * The back office's view of the audit log (features/audit writes it): a searchable, paged list, on the
 * lists' engine (features/lists).
 */

import { and, asc, count, desc, eq, or } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { auditLog } from "~/db/schema";
import { type Paged, pageInfo } from "~/features/lists/listing";
import { ilikeContains, readPage } from "~/features/lists/search.server";

export async function listAudit(
  db: Database,
  filter: { q: string; entity: string | null; page: number },
): Promise<Paged<typeof auditLog.$inferSelect>> {
  const where = and(
    filter.entity ? eq(auditLog.entity, filter.entity) : undefined,
    filter.q
      ? or(
          ilikeContains(auditLog.actorEmail, filter.q),
          ilikeContains(auditLog.action, filter.q),
          eq(auditLog.entityId, filter.q),
        )
      : undefined,
  );
  const [counted] = await db.select({ n: count() }).from(auditLog).where(where);
  const total = counted?.n ?? 0;
  const rows = await readPage(
    pageInfo(filter.page, total),
    ({ limit, offset, reverse }) => {
      const dir = reverse ? asc : desc;
      return db
        .select()
        .from(auditLog)
        .where(where)
        .orderBy(dir(auditLog.at), dir(auditLog.id))
        .limit(limit)
        .offset(offset);
    },
    filter.page,
  );
  return { rows, total, page: filter.page };
}
