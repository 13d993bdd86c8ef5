/**
 * The domain alert an order was made from (issue 39, item 4): the order's pages name it, and until the
 * client answers the brief, its form starts filled in with the domain and what the check found. The
 * domain watch sits above orders (ADR 0012), so its tables are read here by name.
 */
import { and, eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import {
  type BriefAnswers,
  domainAlerts,
  type IntakeQuestion,
  type Order,
  watchedDomains,
} from "~/db/schema";

export interface OrderAlert {
  title: string;
  domain: string;
  /** The domain's page for this viewer. */
  href: string;
}

/** The alert of an order for its client or the owner, or null (none, or its domain was removed). */
export async function alertOfOrder(
  db: Database,
  order: Pick<Order, "fromDomainAlertId" | "clientId">,
  role: "client" | "admin",
): Promise<(OrderAlert & { message: string }) | null> {
  if (!order.fromDomainAlertId) return null;
  const [row] = await db
    .select({
      title: domainAlerts.title,
      message: domainAlerts.message,
      domain: watchedDomains.displayName,
      domainId: watchedDomains.id,
    })
    .from(domainAlerts)
    .innerJoin(watchedDomains, eq(watchedDomains.id, domainAlerts.domainId))
    .where(and(eq(domainAlerts.id, order.fromDomainAlertId), eq(domainAlerts.clientId, order.clientId)))
    .limit(1);
  if (!row) return null;
  const href =
    role === "admin"
      ? `/admin/domains?q=${encodeURIComponent(row.domain)}`
      : `/client/domains/${row.domainId}`;
  return { title: row.title, message: row.message, domain: row.domain, href };
}

/**
 * The brief's starting answers for an order made from an alert: the domain in the first question about
 * domains, what was found in the first free-text question about the problem or notes. Only questions
 * the service asks are filled; the client completes and sends the rest.
 */
export function alertPrefill(
  questions: IntakeQuestion[],
  alert: { domain: string; title: string; message: string },
): BriefAnswers {
  const answers: BriefAnswers = {};
  const domainQuestion = questions.find((q) => /domain/i.test(q.key));
  if (domainQuestion) answers[domainQuestion.key] = alert.domain;
  const notes = questions.find(
    (q) => q.kind === "textarea" && q !== domainQuestion && /problem|notes|prompt/i.test(q.key),
  );
  if (notes) answers[notes.key] = `${alert.title}. ${alert.message}`.slice(0, notes.maxLength ?? 2000);
  return answers;
}
