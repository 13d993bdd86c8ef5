/**
 * A care plan whose renewal was declined, made by the real renewal and charging code (issue 38, item 4):
 * a subscription anchored so that its period 1 is due on `dueDay`, that period issued on its notice day,
 * then charged on the due day by a provider that declines it with `decline`. The plan is then past due
 * with one declined attempt, as the owner's pages show it.
 */
import { eq } from "drizzle-orm";
import type { Config } from "~/config.server";
import type { Database } from "~/db/client.server";
import { planPeriods } from "~/db/schema";
import type { ChargeDecline } from "~/features/payments/provider";
import { addDays, addMonthsClamped, type CalendarDay } from "~/features/plans/periods";
import { chargeDueRenewals } from "~/features/plans/renewal-charges.server";
import { issueDueRenewalsOf } from "~/features/plans/renewals.server";
import { createSubscription } from "./plans";
import { savedCardsNotUsed } from "./saved-card-stubs";

const noon = (day: CalendarDay) => new Date(`${day}T12:00:00Z`);

export interface DeclinedPlan {
  subscriptionId: string;
  /** Period 1's order and invoice: the unpaid renewal. */
  orderId: string;
  invoiceId: string;
}

export async function declinedPlan(
  db: Database,
  config: Config,
  input: {
    clientId: string;
    /** The day period 1 starts and is charged (its invoice is issued RENEWAL_NOTICE_DAYS before). */
    dueDay: CalendarDay;
    priceUsd: number;
    planName?: string;
    decline: ChargeDecline & { message: string };
  },
): Promise<DeclinedPlan> {
  const subscriptionId = await createSubscription(db, {
    clientId: input.clientId,
    anchorDay: addMonthsClamped(input.dueDay, -1),
    priceUsd: input.priceUsd,
    planName: input.planName ?? "Care Plus",
  });
  const [issued] = await issueDueRenewalsOf(
    { db, config, rates: async () => ({}) },
    subscriptionId,
    noon(addDays(input.dueDay, -config.plans.renewalNoticeDays)),
  );
  if (!issued) throw new Error("the renewal was not issued");
  const charged = await chargeDueRenewals(
    {
      db,
      business: config.business,
      publicUrl: config.publicUrl,
      wakeOutbox: () => {},
      logger: { info() {}, warn() {} },
      provider: () => ({
        ...savedCardsNotUsed,
        async chargeSavedCard() {
          return {
            status: "declined",
            paymentReference: `pi_declined_${subscriptionId.slice(0, 8)}`,
            decline: input.decline,
            message: input.decline.message,
          };
        },
      }),
    },
    noon(input.dueDay),
  );
  const [period] = await db.select().from(planPeriods).where(eq(planPeriods.subscriptionId, subscriptionId));
  if (!charged.some((c) => c.periodId === period?.id)) throw new Error("the renewal was not charged");
  return { subscriptionId, orderId: issued.orderId, invoiceId: issued.invoiceId };
}
