/**
 * A client's watched domains (issue 39, item 1): add, change, remove, and the pages' data. Every query
 * is scoped by the session's client id; another client's domain is "not found".
 */
import { and, count, desc, eq, isNull } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "~/db/client.server";
import { type DomainAlert, domainAlerts, watchedDomains } from "~/db/schema";
import { consumeRateLimit } from "~/features/rate-limit/rate-limit.server";
import type { ActionResult } from "~/ui/form";
import { DKIM_SELECTOR } from "./dkim";
import type { DomainReport } from "./domain-report";
import { fixServiceSlug } from "./fixes";
import { domainNameSchema } from "./names";
import { domainHistory, domainsWithStates } from "./watch.server";
import { type DomainWatchState, listLimit, watchStateWords } from "./watch-rules";

/** Adding domains: at most this many a day per client (adding schedules a check at once). */
export const DOMAIN_ADDS_PER_DAY = 20;
const DAY_MS = 24 * 60 * 60 * 1000;

export const DOMAIN_NOT_FOUND = "That domain was not found among yours.";

/** "s1, s2 google": DKIM selectors, comma or space separated; at most 10. */
const selectorsField = z
  .string()
  .max(400, { message: "Enter at most 10 DKIM selectors." })
  .optional()
  .transform((raw, ctx) => {
    const list = [
      ...new Set(
        (raw ?? "")
          .split(/[\s,]+/)
          .map((s) => s.trim().toLowerCase())
          .filter(Boolean),
      ),
    ];
    if (list.length > 10) {
      ctx.addIssue({ code: "custom", message: "Enter at most 10 DKIM selectors." });
      return z.NEVER;
    }
    const bad = list.find((s) => !DKIM_SELECTOR.test(s));
    if (bad) {
      ctx.addIssue({
        code: "custom",
        message: `“${bad.slice(0, 80)}” is not a DKIM selector: letters, digits, hyphens and dots, such as selector1.`,
      });
      return z.NEVER;
    }
    return list;
  });

export const addDomainForm = z.object({
  name: domainNameSchema,
  selectors: selectorsField,
});

export const updateDomainForm = z.object({
  selectors: selectorsField,
  expiry: z
    .string()
    .max(10)
    .optional()
    .transform((raw, ctx) => {
      const value = (raw ?? "").trim();
      if (value === "") return null;
      const day = /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T00:00:00Z`) : null;
      if (!day || Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== value) {
        ctx.addIssue({ code: "custom", message: "Enter the expiry as a date, such as 2027-05-31." });
        return z.NEVER;
      }
      return value;
    }),
});

export type AddDomainInput = z.infer<typeof addDomainForm>;

export async function addDomain(
  db: Database,
  clientId: string,
  input: AddDomainInput,
  now: Date,
): Promise<ActionResult<{ domainId: string }>> {
  const { allowance, domains } = await domainsWithStates(db, clientId);
  if (domains.some((d) => d.name === input.name.ascii)) {
    return { ok: false, status: 409, error: `You already watch ${input.name.unicode}.` };
  }
  if (domains.length >= listLimit(allowance)) {
    return {
      ok: false,
      status: 409,
      error: `You can list at most ${listLimit(allowance)} domains. Remove one to add another.`,
    };
  }
  const limit = await consumeRateLimit(db, `domain-add:${clientId}`, DOMAIN_ADDS_PER_DAY, DAY_MS);
  if (!limit.allowed) {
    return {
      ok: false,
      status: 429,
      error: "You have added many domains today. Please try again tomorrow.",
    };
  }
  const [row] = await db
    .insert(watchedDomains)
    .values({
      clientId,
      name: input.name.ascii,
      displayName: input.name.unicode,
      dkimSelectors: input.selectors,
      nextCheckAt: now,
    })
    .onConflictDoNothing()
    .returning({ id: watchedDomains.id });
  if (!row) return { ok: false, status: 409, error: `You already watch ${input.name.unicode}.` };
  return {
    ok: true,
    domainId: row.id,
    message: `${input.name.unicode} added. Its first check runs within a few minutes.`,
  };
}

export async function updateDomain(
  db: Database,
  clientId: string,
  domainId: string,
  input: z.infer<typeof updateDomainForm>,
): Promise<ActionResult> {
  const [row] = await db
    .update(watchedDomains)
    .set({ dkimSelectors: input.selectors, typedExpiry: input.expiry })
    .where(and(eq(watchedDomains.id, domainId), eq(watchedDomains.clientId, clientId)))
    .returning({ name: watchedDomains.displayName });
  if (!row) return { ok: false, status: 404, error: DOMAIN_NOT_FOUND };
  return { ok: true, message: `Saved. The next check of ${row.name} uses them.` };
}

export async function removeDomain(db: Database, clientId: string, domainId: string): Promise<ActionResult> {
  const [row] = await db
    .delete(watchedDomains)
    .where(and(eq(watchedDomains.id, domainId), eq(watchedDomains.clientId, clientId)))
    .returning({ name: watchedDomains.displayName });
  if (!row) return { ok: false, status: 404, error: DOMAIN_NOT_FOUND };
  return { ok: true, message: `${row.name} is no longer watched.` };
}

export interface DomainListItem {
  id: string;
  name: string;
  state: DomainWatchState;
  stateWords: string;
  lastCheckedAt: string | null;
  verdict: string | null;
  openAlerts: number;
}

export async function clientDomainList(db: Database, clientId: string) {
  const { allowance, domains } = await domainsWithStates(db, clientId);
  const open = await db
    .select({ domainId: domainAlerts.domainId, n: count() })
    .from(domainAlerts)
    .where(and(eq(domainAlerts.clientId, clientId), isNull(domainAlerts.clearedAt)))
    .groupBy(domainAlerts.domainId);
  const items: DomainListItem[] = domains.map((d) => ({
    id: d.id,
    name: d.displayName,
    state: d.state,
    stateWords: watchStateWords(d.state),
    lastCheckedAt: d.lastCheckedAt?.toISOString() ?? null,
    verdict: d.lastVerdict,
    openAlerts: Number(open.find((o) => o.domainId === d.id)?.n ?? 0),
  }));
  return { allowance, items, limit: listLimit(allowance) };
}

export interface AlertView {
  id: string;
  title: string;
  message: string;
  severity: DomainAlert["severity"];
  fix: DomainAlert["fix"];
  raisedAt: string;
  clearedAt: string | null;
  clearedNote: string | null;
}

export function alertView(a: DomainAlert): AlertView {
  return {
    id: a.id,
    title: a.title,
    message: a.message,
    severity: a.severity,
    fix: a.fix,
    raisedAt: a.raisedAt.toISOString(),
    clearedAt: a.clearedAt?.toISOString() ?? null,
    clearedNote: a.clearedNote,
  };
}

/** One domain's page: its state, latest report, open and past alerts, and history. */
export async function clientDomainPage(db: Database, clientId: string, domainId: string) {
  const { domains } = await domainsWithStates(db, clientId);
  const domain = domains.find((d) => d.id === domainId);
  if (!domain) return null;
  const [alerts, history] = await Promise.all([
    db
      .select()
      .from(domainAlerts)
      .where(and(eq(domainAlerts.domainId, domainId), eq(domainAlerts.clientId, clientId)))
      .orderBy(desc(domainAlerts.raisedAt))
      .limit(50),
    domainHistory(db, domainId),
  ]);
  return {
    id: domain.id,
    name: domain.displayName,
    ascii: domain.name,
    state: domain.state,
    stateWords: watchStateWords(domain.state),
    selectors: domain.dkimSelectors,
    typedExpiry: domain.typedExpiry,
    lastCheckedAt: domain.lastCheckedAt?.toISOString() ?? null,
    nextCheckAt: domain.state.kind === "watched" ? domain.nextCheckAt.toISOString() : null,
    report: (domain.lastReport as DomainReport | null) ?? null,
    openAlerts: alerts.filter((a) => !a.clearedAt).map(alertView),
    pastAlerts: alerts
      .filter((a) => a.clearedAt && a.clearedNote !== "Replaced by a newer alert.")
      .map(alertView),
    history: history.map((h) => ({ ...h, checkedAt: h.checkedAt.toISOString() })),
  };
}

/** An open alert of the client's, for a fix page (the purchase or the quote request). */
export async function clientAlert(db: Database, clientId: string, alertId: string) {
  if (!z.string().uuid().safeParse(alertId).success) return null;
  const [row] = await db
    .select({ alert: domainAlerts, domain: watchedDomains.displayName })
    .from(domainAlerts)
    .innerJoin(watchedDomains, eq(watchedDomains.id, domainAlerts.domainId))
    .where(and(eq(domainAlerts.id, alertId), eq(domainAlerts.clientId, clientId)))
    .limit(1);
  return row ? { ...alertView(row.alert), domain: row.domain } : null;
}

export const ALERT_NOT_FOUND = "That alert was not found among your domains' alerts.";

/** The client's alert named by a purchase URL, when this service is its fix; null otherwise. */
export async function alertForPurchase(
  db: Database,
  clientId: string,
  alertId: string | null,
  serviceSlug: string,
) {
  if (!alertId) return null;
  const alert = await clientAlert(db, clientId, alertId);
  return alert && fixServiceSlug(alert.fix) === serviceSlug ? alert : null;
}

/** A quote request's starting description for an alert: the domain, what was found, and the ask. */
export function alertQuoteText(alert: { domain: string; title: string; message: string }): string {
  return `Please fix this on ${alert.domain}: ${alert.title}. ${alert.message}`;
}
