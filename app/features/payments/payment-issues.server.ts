/**
 * What the back office must look at about payments (ADR 0503): a payment of the wrong amount, a payment
 * for a cancelled order, a second payment of an invoice already paid (all from the webhook's processing,
 * whoever brought the news), and a checkout the provider does not know (from the sweep). Kept as rows;
 * the same issue twice is one row.
 */
import { desc, eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { orders, type PaymentIssueKind, paymentIssues } from "~/db/schema";

export async function recordPaymentIssue(
  db: Database,
  issue: { kind: PaymentIssueKind; orderId: string; provider: string; reference: string; detail: string },
): Promise<void> {
  await db
    .insert(paymentIssues)
    .values(issue)
    .onConflictDoNothing({ target: [paymentIssues.kind, paymentIssues.orderId, paymentIssues.reference] });
}

export interface PaymentIssueRow {
  id: string;
  kind: PaymentIssueKind;
  orderId: string;
  clientId: string;
  serviceName: string;
  provider: string;
  reference: string;
  detail: string;
  createdAt: Date;
}

/** The newest issues first, at most `limit`. */
export async function listPaymentIssues(db: Database, limit = 10): Promise<PaymentIssueRow[]> {
  return db
    .select({
      id: paymentIssues.id,
      kind: paymentIssues.kind,
      orderId: paymentIssues.orderId,
      clientId: orders.clientId,
      serviceName: orders.serviceName,
      provider: paymentIssues.provider,
      reference: paymentIssues.reference,
      detail: paymentIssues.detail,
      createdAt: paymentIssues.createdAt,
    })
    .from(paymentIssues)
    .innerJoin(orders, eq(orders.id, paymentIssues.orderId))
    .orderBy(desc(paymentIssues.createdAt), desc(paymentIssues.id))
    .limit(limit);
}
