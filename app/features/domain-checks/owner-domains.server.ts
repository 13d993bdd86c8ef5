/**
 * The owner's watch (issue 39, item 5): every client's domains, the most urgent first (expired, then
 * the fewest days left on a certificate or registration, then the worst result), filtered by the kind of
 * open alert or by a name, and the "check now" of one domain.
 */
import { and, asc, eq, isNull, or, sql } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "~/db/client.server";
import { clients, domainAlerts, watchedDomains } from "~/db/schema";
import { ilikeContains } from "~/features/lists/search.server";
import type { ActionResult } from "~/ui/form";
import type { DomainProblemFilter } from "./domain-filters";
import type { DomainReport } from "./domain-report";
import { type CheckTrigger, checkAndRecord, type DomainWatchDeps } from "./watch.server";

export const OWNER_DOMAIN_LIMIT = 200;

export interface OwnerDomainRow {
  id: string;
  name: string;
  clientId: string;
  clientName: string;
  lastCheckedAt: string | null;
  verdict: string | null;
  daysLeft: number | null;
  alerts: string[];
}

export async function ownerDomainList(
  db: Database,
  { q, problem }: { q: string; problem: DomainProblemFilter | null },
): Promise<{ rows: OwnerDomainRow[]; capped: boolean }> {
  const family = problem && problem !== "any" ? sql`and ${domainAlerts.family} like ${`${problem}%`}` : sql``;
  const hasAlert = problem
    ? sql`exists (select 1 from ${domainAlerts} where ${domainAlerts.domainId} = ${watchedDomains.id} and ${domainAlerts.clearedAt} is null ${family})`
    : undefined;
  const needle = q.trim().slice(0, 100);
  const rows = await db
    .select({
      id: watchedDomains.id,
      name: watchedDomains.displayName,
      clientId: clients.id,
      clientName: clients.name,
      lastCheckedAt: watchedDomains.lastCheckedAt,
      verdict: watchedDomains.lastVerdict,
      daysLeft: watchedDomains.lastDaysLeft,
      alerts: sql<
        string[]
      >`coalesce((select json_agg(${domainAlerts.title} order by ${domainAlerts.raisedAt}) from ${domainAlerts} where ${domainAlerts.domainId} = ${watchedDomains.id} and ${domainAlerts.clearedAt} is null), '[]'::json)`,
    })
    .from(watchedDomains)
    .innerJoin(clients, eq(clients.id, watchedDomains.clientId))
    .where(
      and(
        isNull(clients.deletedAt),
        hasAlert,
        needle
          ? or(
              ilikeContains(watchedDomains.displayName, needle),
              ilikeContains(watchedDomains.name, needle),
              ilikeContains(clients.name, needle),
            )
          : undefined,
      ),
    )
    .orderBy(
      sql`case when ${watchedDomains.lastDaysLeft} < 0 then 0 else 1 end`,
      sql`${watchedDomains.lastDaysLeft} asc nulls last`,
      sql`case ${watchedDomains.lastVerdict} when 'problem' then 0 when 'warning' then 1 when 'not-checked' then 2 when 'ok' then 3 else 4 end`,
      asc(watchedDomains.displayName),
    )
    .limit(OWNER_DOMAIN_LIMIT + 1);
  return {
    capped: rows.length > OWNER_DOMAIN_LIMIT,
    rows: rows.slice(0, OWNER_DOMAIN_LIMIT).map((r) => ({
      ...r,
      lastCheckedAt: r.lastCheckedAt?.toISOString() ?? null,
      alerts: Array.isArray(r.alerts) ? r.alerts : [],
    })),
  };
}

export const checkNowForm = z.object({ domainId: z.uuid({ message: "That domain was not found." }) });

/** The owner's "check now": the domain checked at once (its schedule kept), the result said. */
export async function ownerCheckNow(
  deps: DomainWatchDeps,
  domainId: string,
  now: Date,
  trigger: CheckTrigger = "owner",
): Promise<ActionResult<{ report: DomainReport }>> {
  const [domain] = await deps.db
    .select()
    .from(watchedDomains)
    .where(eq(watchedDomains.id, domainId))
    .limit(1);
  if (!domain) return { ok: false, status: 404, error: "That domain was not found." };
  try {
    const { report, raised } = await checkAndRecord(deps, domain, now, trigger, 0);
    return {
      ok: true,
      report,
      message: `${domain.displayName} checked${raised ? `: ${raised} new ${raised === 1 ? "alert" : "alerts"}` : ""}.`,
    };
  } catch {
    deps.count?.("check-failed");
    return { ok: false, status: 503, error: `${domain.displayName} could not be checked. Please try again.` };
  }
}
