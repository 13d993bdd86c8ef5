import { redirect } from "react-router";
import { requireClient } from "~/features/accounts/session.server";
import { finishCardUpdate, ownPlanForCard } from "~/features/plans/plan-cards.server";
import type { Route } from "./+types/plan-card-saved";

/**
 * Not in the spec (issue 38, item 5): where the provider sends the client back after saving a card for
 * their plan. The card is read from the provider (never from the address), then the plan page says so.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { user } = await requireClient(request, context);
  const { runtime, logger } = context;
  const sub = await ownPlanForCard(runtime.database.db, user.id, params.subscriptionId);
  if (!sub) throw new Response("Care plan not found.", { status: 404 });
  try {
    const done = await finishCardUpdate(
      { db: runtime.database.db, provider: (name) => runtime.payments.forWebhook(name) },
      sub,
      { id: user.id, email: user.email },
      new Date(),
    );
    const shown = "reason" in done ? (done.reason === "not-yet" ? "waiting" : "none") : "saved";
    return redirect(`/client/plans?card=${shown}`);
  } catch (error) {
    // The provider did not answer: the plan-states job reads the card later.
    logger.warn({ err: error, subscriptionId: sub.id }, "card update: the card was not read back");
    return redirect("/client/plans?card=waiting");
  }
}
