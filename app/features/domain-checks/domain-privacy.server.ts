/**
 * A client's watched domains in their data export and at their account's deletion (issue 39; the
 * export and deletion of ADR 0520). The domains are the client's: deleting the account deletes them,
 * their checks and alerts (an order made from an alert keeps its order, without the link).
 */
import { asc, eq } from "drizzle-orm";
import type { Database, Tx } from "~/db/client.server";
import { domainAlerts, watchedDomains } from "~/db/schema";

export async function domainsForExport(db: Database, clientId: string) {
  const [domains, alerts] = await Promise.all([
    db
      .select({
        id: watchedDomains.id,
        name: watchedDomains.displayName,
        dkimSelectors: watchedDomains.dkimSelectors,
        typedExpiry: watchedDomains.typedExpiry,
        lastCheckedAt: watchedDomains.lastCheckedAt,
        lastVerdict: watchedDomains.lastVerdict,
        addedAt: watchedDomains.createdAt,
      })
      .from(watchedDomains)
      .where(eq(watchedDomains.clientId, clientId))
      .orderBy(asc(watchedDomains.createdAt)),
    db
      .select({
        domainId: domainAlerts.domainId,
        title: domainAlerts.title,
        message: domainAlerts.message,
        raisedAt: domainAlerts.raisedAt,
        clearedAt: domainAlerts.clearedAt,
        clearedNote: domainAlerts.clearedNote,
      })
      .from(domainAlerts)
      .where(eq(domainAlerts.clientId, clientId))
      .orderBy(asc(domainAlerts.raisedAt)),
  ]);
  return domains.map(({ id, ...d }) => ({
    ...d,
    alerts: alerts.filter((a) => a.domainId === id).map(({ domainId: _, ...a }) => a),
  }));
}

/** At deletion: the domains go, with their history and alerts (cascade). */
export async function forgetDomainsOfDeletedClient(tx: Tx, clientId: string): Promise<void> {
  await tx.delete(watchedDomains).where(eq(watchedDomains.clientId, clientId));
}
