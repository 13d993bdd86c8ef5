/**
 * The domain watch (issue 39; ADR 0541): checks the clients' domains on their plan's schedule, keeps each
 * check as history, and raises and clears alerts (alerts.ts) in the bell, live and by email.
 *
 * - `runDueDomainChecks` is the `domain-watch` job: the domains whose `next_check_at` has come, a batch
 *   at a time, a few at once; a paused domain is looked at again in an hour (a new plan starts it).
 * - `checkAndRecord` checks one domain and records it: the owner's "check now" uses it too. The history
 *   row, the domain's latest state and its alerts commit together; a failure leaves the domain due.
 * - Everything is scoped by the client's id where a client asks.
 */
import { and, asc, desc, eq, inArray, isNull, lte, sql } from "drizzle-orm";
import type { AppLoadContext } from "react-router";
import type { Database, Tx } from "~/db/client.server";
import {
  carePlans,
  clients,
  domainAlerts,
  domainChecks,
  planSubscriptions,
  type WatchedDomain,
  watchedDomains,
} from "~/db/schema";
import { clientWantsEmail } from "~/features/accounts/notification-preferences.server";
import type { BusinessIdentity } from "~/features/business/business";
import { acquireLease } from "~/features/jobs/leases.server";
import { publishLiveEvent } from "~/features/live/live-events.server";
import { noticeEmail } from "~/features/mail/notice-email.server";
import { enqueueEmail } from "~/features/mail/outbox.server";
import { raiseNotification } from "~/features/notifications/notifications.server";
import { type AlertCandidate, readAlerts } from "./alerts";
import { checkDomain, type DomainCheckDeps } from "./check-domain.server";
import type { DomainReport } from "./domain-report";
import { parseDomainName } from "./names";
import {
  type DomainWatchState,
  domainWatchStates,
  nextCheckAt,
  type WatchAllowance,
  watchAllowance,
} from "./watch-rules";

export const DOMAIN_WATCH_JOB = "domain-watch";
/** Domains taken per run, and checked at once. */
export const WATCH_BATCH = 12;
export const WATCH_CONCURRENCY = 3;
/** A paused domain is looked at again after this long. */
const PAUSED_RECHECK_MS = 60 * 60 * 1000;

export interface DomainWatchDeps {
  db: Database;
  checker: DomainCheckDeps;
  business: BusinessIdentity;
  publicUrl: string;
  /** Wakes the outbox after alerts queued email. */
  wakeOutbox: () => void;
  /** Counts checks and alerts for /metrics (server/metrics.ts). */
  count?: (what: "check" | "check-failed" | "alert") => void;
  random?: () => number;
}

export type CheckTrigger = "schedule" | "owner" | "client";

/** The allowance of each client given, from their care plans. */
export async function allowancesOf(db: Database, clientIds: string[]): Promise<Map<string, WatchAllowance>> {
  const out = new Map<string, WatchAllowance>();
  if (clientIds.length === 0) return out;
  const rows = await db
    .select({
      clientId: planSubscriptions.clientId,
      status: planSubscriptions.status,
      planName: planSubscriptions.planName,
      watchedDomains: carePlans.watchedDomains,
    })
    .from(planSubscriptions)
    .innerJoin(carePlans, eq(carePlans.id, planSubscriptions.planId))
    .where(inArray(planSubscriptions.clientId, clientIds));
  for (const id of clientIds) out.set(id, watchAllowance(rows.filter((r) => r.clientId === id)));
  return out;
}

/** A client's domains, oldest first, each with its watch state. */
export async function domainsWithStates(
  db: Database,
  clientId: string,
): Promise<{ allowance: WatchAllowance; domains: Array<WatchedDomain & { state: DomainWatchState }> }> {
  const [rows, allowances] = await Promise.all([
    db
      .select()
      .from(watchedDomains)
      .where(eq(watchedDomains.clientId, clientId))
      .orderBy(asc(watchedDomains.createdAt), asc(watchedDomains.id)),
    allowancesOf(db, [clientId]),
  ]);
  const allowance = allowances.get(clientId)!;
  const states = domainWatchStates(rows.length, allowance);
  return { allowance, domains: rows.map((d, i) => ({ ...d, state: states[i]! })) };
}

/** The state of each due domain, by its place among its client's domains. */
async function statesOf(db: Database, due: WatchedDomain[]): Promise<Map<string, DomainWatchState>> {
  const clientIds = [...new Set(due.map((d) => d.clientId))];
  const [all, allowances] = await Promise.all([
    db
      .select({ id: watchedDomains.id, clientId: watchedDomains.clientId })
      .from(watchedDomains)
      .where(inArray(watchedDomains.clientId, clientIds))
      .orderBy(asc(watchedDomains.createdAt), asc(watchedDomains.id)),
    allowancesOf(db, clientIds),
  ]);
  const states = new Map<string, DomainWatchState>();
  for (const clientId of clientIds) {
    const mine = all.filter((d) => d.clientId === clientId);
    const list = domainWatchStates(mine.length, allowances.get(clientId)!);
    for (const [i, d] of mine.entries()) states.set(d.id, list[i]!);
  }
  return states;
}

/** Runs `work` over `items`, `limit` at a time. */
async function pooled<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const item = items[next++]!;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

export interface WatchRunResult {
  checked: number;
  paused: number;
  failed: number;
  alerts: number;
}

/**
 * The `domain-watch` job: checks the domains due at `now` (a batch), or only `clientId`'s when given
 * (the test hook). A domain whose check throws stays due and is counted as failed.
 */
export async function runDueDomainChecks(
  deps: DomainWatchDeps,
  now: Date,
  options: { stopping?: () => boolean; clientId?: string } = {},
): Promise<WatchRunResult> {
  const { db } = deps;
  const due = await db
    .select({ domain: watchedDomains })
    .from(watchedDomains)
    .innerJoin(clients, eq(clients.id, watchedDomains.clientId))
    .where(
      and(
        lte(watchedDomains.nextCheckAt, now),
        isNull(clients.deletedAt),
        options.clientId ? eq(watchedDomains.clientId, options.clientId) : undefined,
      ),
    )
    .orderBy(asc(watchedDomains.nextCheckAt))
    .limit(WATCH_BATCH);
  const result: WatchRunResult = { checked: 0, paused: 0, failed: 0, alerts: 0 };
  if (due.length === 0) return result;
  const states = await statesOf(
    db,
    due.map((d) => d.domain),
  );
  await pooled(
    due.map((d) => d.domain),
    WATCH_CONCURRENCY,
    async (domain) => {
      if (options.stopping?.()) return;
      const state = states.get(domain.id);
      if (!state || state.kind === "paused") {
        await db
          .update(watchedDomains)
          .set({ nextCheckAt: new Date(now.getTime() + PAUSED_RECHECK_MS) })
          .where(eq(watchedDomains.id, domain.id));
        result.paused++;
        return;
      }
      try {
        const recorded = await checkAndRecord(deps, domain, now, "schedule", state.intervalMs);
        result.checked++;
        result.alerts += recorded.raised;
      } catch {
        result.failed++;
        deps.count?.("check-failed");
      }
    },
  );
  return result;
}

/** Days left on the soonest of the website certificates and the registration, for the owner's sort. */
export function soonestDaysLeft(report: DomainReport): number | null {
  const days = [
    report.checks.https.details.certificate?.daysLeft,
    report.checks.httpsWww.details.certificate?.daysLeft,
    report.checks.registration.details.daysLeft,
  ].filter((d): d is number => typeof d === "number");
  return days.length ? Math.min(...days) : null;
}

/**
 * Checks one domain and records it: a history row, the domain's latest report and next check, and its
 * alerts, in one transaction. Returns the report and how many alerts it raised.
 */
export async function checkAndRecord(
  deps: DomainWatchDeps,
  domain: WatchedDomain,
  now: Date,
  trigger: CheckTrigger,
  intervalMs: number,
): Promise<{ report: DomainReport; raised: number }> {
  const parsed = parseDomainName(domain.name);
  if (!parsed.ok) throw new Error(`stored domain ${domain.id} no longer parses`);
  const checker = { ...deps.checker, now: () => now };
  const report = await checkDomain(parsed.name, checker, {
    dkimSelectors: domain.dkimSelectors,
    typedExpiry: domain.typedExpiry ? new Date(`${domain.typedExpiry}T00:00:00Z`) : null,
  });
  deps.count?.("check");
  const notices: Array<{ title: string; message: string; type: "warning" | "error" | "success" }> = [];
  await deps.db.transaction(async (tx) => {
    // The domain may have been removed while it was checked: then nothing is recorded.
    const [still] = await tx
      .select({ id: watchedDomains.id })
      .from(watchedDomains)
      .where(eq(watchedDomains.id, domain.id))
      .for("update");
    if (!still) return;
    await tx.insert(domainChecks).values({
      domainId: domain.id,
      checkedAt: now,
      verdict: report.verdict,
      trigger,
      report,
    });
    await tx
      .update(watchedDomains)
      .set({
        lastCheckedAt: now,
        lastVerdict: report.verdict,
        lastDaysLeft: soonestDaysLeft(report),
        lastReport: report,
        // The owner's "check now" keeps the schedule; a scheduled check sets the next one.
        ...(trigger === "schedule" ? { nextCheckAt: nextCheckAt(now, intervalMs, deps.random) } : {}),
      })
      .where(eq(watchedDomains.id, domain.id));
    notices.push(...(await reconcileAlerts(tx, domain, report, now)));
    for (const notice of notices) {
      await raiseNotification(tx, domain.clientId, {
        title: notice.title,
        message: notice.message,
        type: notice.type,
        href: `/client/domains/${domain.id}`,
      });
    }
    await publishLiveEvent(tx, {
      userId: domain.clientId,
      kind: "domain",
      entityId: domain.id,
      status: report.verdict,
    });
    if (notices.length > 0) await emailNotices(deps, tx, domain, notices);
  });
  const raised = notices.filter((n) => n.type !== "success").length;
  for (let i = 0; i < raised; i++) deps.count?.("alert");
  if (notices.length > 0) deps.wakeOutbox();
  return { report, raised };
}

/**
 * Compares the report's reading with the domain's open alerts: raises what is new (a threshold key
 * never raised before, or a condition not already open), replaces an open alert of the same family by a
 * more urgent one, and clears those the report found fine. Returns the notices to give.
 */
async function reconcileAlerts(
  tx: Tx,
  domain: WatchedDomain,
  report: DomainReport,
  now: Date,
): Promise<Array<{ title: string; message: string; type: "warning" | "error" | "success" }>> {
  const reading = readAlerts(report, now);
  const open = await tx
    .select()
    .from(domainAlerts)
    .where(and(eq(domainAlerts.domainId, domain.id), isNull(domainAlerts.clearedAt)));
  const notices: Array<{ title: string; message: string; type: "warning" | "error" | "success" }> = [];
  const raise = async (candidate: AlertCandidate) => {
    const current = open.find((a) => a.family === candidate.family);
    if (current?.code === candidate.code) return;
    if (candidate.thresholdKey) {
      const [before] = await tx
        .select({ id: domainAlerts.id })
        .from(domainAlerts)
        .where(
          and(eq(domainAlerts.domainId, domain.id), eq(domainAlerts.thresholdKey, candidate.thresholdKey)),
        )
        .limit(1);
      if (before) return;
    }
    if (current) {
      await tx
        .update(domainAlerts)
        .set({ clearedAt: now, clearedNote: "Replaced by a newer alert." })
        .where(eq(domainAlerts.id, current.id));
    }
    await tx.insert(domainAlerts).values({
      domainId: domain.id,
      clientId: domain.clientId,
      family: candidate.family,
      code: candidate.code,
      thresholdKey: candidate.thresholdKey,
      severity: candidate.severity,
      title: candidate.title,
      message: candidate.message,
      fix: candidate.fix,
      raisedAt: now,
    });
    notices.push({
      title: candidate.title,
      message: candidate.message,
      type: candidate.severity === "problem" ? "error" : "warning",
    });
  };
  for (const candidate of reading.candidates) await raise(candidate);
  const families = new Set(reading.candidates.map((c) => c.family));
  for (const alert of open) {
    if (families.has(alert.family)) continue;
    const note = reading.settled(alert.family);
    if (!note) continue;
    await tx
      .update(domainAlerts)
      .set({ clearedAt: now, clearedNote: note })
      .where(eq(domainAlerts.id, alert.id));
    notices.push({ title: `Resolved: ${alert.title}`, message: note, type: "success" });
  }
  return notices;
}

/** One email for a check's notices, when the client's preferences allow it. */
async function emailNotices(
  deps: DomainWatchDeps,
  tx: Tx,
  domain: WatchedDomain,
  notices: Array<{ title: string; message: string; type: string }>,
): Promise<void> {
  if (!(await clientWantsEmail(tx, domain.clientId, "domainAlert"))) return;
  const [client] = await tx
    .select({ name: clients.name, email: clients.email })
    .from(clients)
    .where(eq(clients.id, domain.clientId));
  if (!client) return;
  const subject =
    notices.length === 1
      ? notices[0]!.title
      : `${domain.displayName}: ${notices.length} changes in its health`;
  const email = noticeEmail({
    business: deps.business,
    publicUrl: deps.publicUrl,
    subject,
    greetingName: client.name,
    lines: notices.flatMap((n) => (notices.length === 1 ? [n.message] : [`${n.title}: ${n.message}`])),
    link: { path: `/client/domains/${domain.id}`, label: "See the domain and its fixes" },
  });
  await enqueueEmail(tx, {
    kind: "domain-alert",
    to: { address: client.email, name: client.name },
    ...email,
  });
}

/** The latest checks of a domain, newest first. */
export async function domainHistory(db: Database, domainId: string, limit = 30) {
  return db
    .select({
      id: domainChecks.id,
      checkedAt: domainChecks.checkedAt,
      verdict: domainChecks.verdict,
      trigger: domainChecks.trigger,
    })
    .from(domainChecks)
    .where(eq(domainChecks.domainId, domainId))
    .orderBy(desc(domainChecks.checkedAt))
    .limit(limit);
}

/** Keeps a year of history per domain. */
export async function pruneDomainHistory(db: Database, now: Date): Promise<void> {
  await db
    .delete(domainChecks)
    .where(sql`${domainChecks.checkedAt} < ${new Date(now.getTime() - 366 * 24 * 3600 * 1000)}`);
}

/** The watch's deps from a request's load context (the owner's check now, the test hook). */
export function domainWatchDepsOf(context: AppLoadContext): DomainWatchDeps {
  const { runtime } = context;
  return {
    db: runtime.database.db,
    checker: runtime.domainChecker,
    business: runtime.config.business,
    publicUrl: runtime.config.publicUrl,
    wakeOutbox: () => runtime.outbox.wake(),
    count: runtime.metrics.countDomainWatch,
  };
}

/**
 * The test hook's run: one client's due domains at `now` (a browser journey's injected day). With `now`
 * given, the server's own watch job stands aside for half an hour, so it never checks them in between.
 */
export async function runClientWatchForTest(
  context: AppLoadContext,
  clientId: string,
  now: Date | null,
): Promise<WatchRunResult> {
  const deps = domainWatchDepsOf(context);
  if (now) await acquireLease(deps.db, DOMAIN_WATCH_JOB, "test-hooks", new Date(), 30 * 60_000);
  return runDueDomainChecks(deps, now ?? new Date(), { clientId });
}
