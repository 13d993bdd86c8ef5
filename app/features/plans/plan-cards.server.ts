/**
 * The card a care plan's renewals are charged to (issue 38, items 4 and 5; ADR 0531). It is read back
 * from the provider after any checkout that saved one, never taken from the browser:
 * - a card update: a setup-mode checkout (`startCardUpdate`), read when the client comes back from it
 *   (`finishCardUpdate`) or, if they never do, by the plan-states job;
 * - a plan invoice paid by hand (its checkout saves the card: orders.server.ts `planCardSaving`), which is
 *   how a declined plan is paid and given its new card in one step.
 * The subscription's `card_updated_at` says which payment the card came from, so each is read once.
 */
import { and, desc, eq, gt, inArray, isNotNull, isNull, or } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { invoices, type PlanSubscription, planPeriods, planSubscriptions } from "~/db/schema";
import { type Actor, recordAudit } from "~/features/audit/audit.server";
import {
  isProviderName,
  type PaymentProvider,
  PaymentProviderError,
  type ProviderName,
  type SavedCard,
  type SavedCardProvider,
} from "~/features/payments/provider";
import { cardBrandName } from "./renewals.server";

/** The card as the plan page prints it. */
export function cardOnFile(
  sub: Pick<PlanSubscription, "cardBrand" | "cardLast4" | "cardExpMonth" | "cardExpYear">,
) {
  if (!sub.cardLast4) return null;
  return `${cardBrandName(sub.cardBrand)} ending ${sub.cardLast4}, expires ${String(sub.cardExpMonth).padStart(2, "0")}/${sub.cardExpYear}`;
}

const cardColumns = (card: SavedCard, provider: ProviderName, at: Date) => ({
  provider,
  providerCustomerId: card.customerId,
  paymentMethodId: card.paymentMethodId,
  cardBrand: card.brand,
  cardLast4: card.last4,
  cardExpMonth: card.expMonth,
  cardExpYear: card.expYear,
  cardUpdatedAt: at,
});

export interface CardUpdateDeps {
  db: Database;
  provider: PaymentProvider;
  publicUrl: string;
  logger: { warn(obj: object, msg: string): void };
}

export type StartCardOutcome =
  | { ok: true; redirectTo: string }
  | { ok: false; status: number; error: string };

/**
 * Opens a setup-mode checkout for the client's plan and keeps its reference on the plan, so the card it
 * saves can be read back. `token` is the form's one-time token: a double click opens one checkout.
 */
export async function startCardUpdate(
  deps: CardUpdateDeps,
  client: { id: string; email: string; name: string },
  subscriptionId: string,
  token: string,
): Promise<StartCardOutcome> {
  const [sub] = await deps.db
    .select()
    .from(planSubscriptions)
    .where(and(eq(planSubscriptions.id, subscriptionId), eq(planSubscriptions.clientId, client.id)))
    .limit(1);
  if (!sub) return { ok: false, status: 404, error: "Care plan not found." };
  if (sub.status === "incomplete" || sub.status === "cancelled") {
    return { ok: false, status: 409, error: `${sub.planName} has no renewals to charge a card for.` };
  }
  const provider = deps.provider;
  try {
    // The plan's customer at this provider, or a new one (the provider was changed since it started).
    const customerId =
      sub.provider === provider.name && sub.providerCustomerId
        ? sub.providerCustomerId
        : await provider.createCustomer({ clientId: client.id, email: client.email, name: client.name });
    const setup = await provider.createCardSetup({
      customerId,
      description: `${sub.planName}: the card for renewals`,
      currency: sub.currency,
      successUrl: `${deps.publicUrl}/client/plans/${sub.id}/card-saved`,
      cancelUrl: `${deps.publicUrl}/client/plans`,
      idempotencyKey: `card-setup:${sub.id}:${token}`,
      metadata: { plan_subscription_id: sub.id, client_id: client.id },
    });
    await deps.db
      .update(planSubscriptions)
      .set({ cardSetupProvider: provider.name, cardSetupReference: setup.reference })
      .where(eq(planSubscriptions.id, sub.id));
    return { ok: true, redirectTo: setup.url ?? `/client/plans/${sub.id}/card-saved` };
  } catch (error) {
    deps.logger.warn({ err: error, subscriptionId: sub.id }, "card update: the provider failed");
    const message = error instanceof PaymentProviderError ? error.message : "the provider did not answer";
    return {
      ok: false,
      status: 502,
      error: `The card form could not be opened (${message}). Please try again.`,
    };
  }
}

export type FinishCardOutcome = { saved: string } | { saved: null; reason: "not-yet" | "none" };

/**
 * Reads the card a plan's card-update checkout saved and puts it on the plan (the page the provider sends
 * the client back to, and the plan-states job for those who never come back). Idempotent.
 */
export async function finishCardUpdate(
  deps: { db: Database; provider: (name: ProviderName) => SavedCardProvider | null },
  subscription: Pick<PlanSubscription, "id" | "clientId" | "cardSetupProvider" | "cardSetupReference">,
  actor: Actor,
  now: Date,
): Promise<FinishCardOutcome> {
  const { cardSetupProvider: name, cardSetupReference: reference } = subscription;
  if (!reference || !isProviderName(name)) return { saved: null, reason: "none" };
  const provider = deps.provider(name);
  if (!provider) return { saved: null, reason: "none" };
  const card = await provider.savedCardOf(reference);
  if (!card) return { saved: null, reason: "not-yet" };
  const saved = await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .update(planSubscriptions)
      .set({ ...cardColumns(card, name, now), cardSetupProvider: null, cardSetupReference: null })
      .where(
        and(eq(planSubscriptions.id, subscription.id), eq(planSubscriptions.cardSetupReference, reference)),
      )
      .returning();
    if (!row) return false;
    await recordAudit(tx, actor, {
      action: "subscription.card",
      entity: "plan_subscription",
      entityId: row.id,
      after: { planName: row.planName, card: `${card.brand} ${card.last4}` },
    });
    return true;
  });
  return saved
    ? { saved: `${cardBrandName(card.brand)} ending ${card.last4}` }
    : { saved: null, reason: "none" };
}

/** The client's own plan's card-setup state (the return page reads it). */
export async function ownPlanForCard(db: Database, clientId: string, id: string) {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
  const [sub] = await db
    .select()
    .from(planSubscriptions)
    .where(and(eq(planSubscriptions.id, id), eq(planSubscriptions.clientId, clientId)))
    .limit(1);
  return sub ?? null;
}

export interface CardRefreshDeps {
  db: Database;
  provider: (name: ProviderName) => SavedCardProvider | null;
  logger: { warn(obj: object, msg: string): void };
}

const SYSTEM: Actor = { id: null, email: "system" };

/**
 * The plan-states job's card work: card updates never come back from, and plan invoices paid by hand
 * since the card was last read (their checkout saved the card paid with). Answers the plans updated.
 */
export async function refreshPlanCards(
  deps: CardRefreshDeps,
  now: Date,
  stopping = () => false,
  clientId?: string,
): Promise<string[]> {
  const updated: string[] = [];
  const only = clientId ? eq(planSubscriptions.clientId, clientId) : undefined;
  const setups = await deps.db
    .select()
    .from(planSubscriptions)
    .where(
      and(
        isNotNull(planSubscriptions.cardSetupReference),
        only,
        inArray(planSubscriptions.status, ["active", "past_due", "suspended"]),
      ),
    );
  for (const sub of setups) {
    if (stopping()) return updated;
    try {
      const done = await finishCardUpdate(deps, sub, SYSTEM, now);
      if (done.saved) updated.push(sub.id);
    } catch (error) {
      deps.logger.warn({ err: error, subscriptionId: sub.id }, "plan card: the setup was not read");
    }
  }
  // Plan invoices paid through a checkout after the card was last read.
  const paid = await deps.db
    .select({
      subscriptionId: planSubscriptions.id,
      provider: invoices.checkoutProvider,
      reference: invoices.checkoutReference,
      paidAt: invoices.paidAt,
    })
    .from(planPeriods)
    .innerJoin(planSubscriptions, eq(planSubscriptions.id, planPeriods.subscriptionId))
    .innerJoin(invoices, eq(invoices.id, planPeriods.invoiceId))
    .where(
      and(
        inArray(planSubscriptions.status, ["active", "past_due", "suspended"]),
        only,
        eq(invoices.status, "paid"),
        isNotNull(invoices.checkoutReference),
        isNotNull(invoices.paidAt),
        or(isNull(planSubscriptions.cardUpdatedAt), gt(invoices.paidAt, planSubscriptions.cardUpdatedAt)),
      ),
    )
    .orderBy(desc(invoices.paidAt));
  const seen = new Set<string>();
  for (const row of paid) {
    // The newest payment of each plan is the card to keep.
    if (stopping() || seen.has(row.subscriptionId)) continue;
    seen.add(row.subscriptionId);
    const provider = isProviderName(row.provider) ? deps.provider(row.provider) : null;
    let card: SavedCard | null = null;
    try {
      card = provider && row.reference ? await provider.savedCardOf(row.reference) : null;
    } catch (error) {
      deps.logger.warn(
        { err: error, subscriptionId: row.subscriptionId },
        "plan card: the payment's card was not read",
      );
      continue;
    }
    await deps.db
      .update(planSubscriptions)
      .set(
        card && isProviderName(row.provider)
          ? cardColumns(card, row.provider, row.paidAt!)
          : { cardUpdatedAt: row.paidAt },
      )
      .where(eq(planSubscriptions.id, row.subscriptionId));
    if (card) updated.push(row.subscriptionId);
  }
  return updated;
}
