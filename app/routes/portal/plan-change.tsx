import { data, redirect, type ShouldRevalidateFunctionArgs, useNavigation } from "react-router";
import { requireClient } from "~/features/accounts/session.server";
import { newCheckoutToken } from "~/features/orders/orders.server";
import { PlanChangeView } from "~/features/plans/PlanChangeView";
import { startCardUpdate } from "~/features/plans/plan-cards.server";
import {
  type ChangeContext,
  confirmPlanChange,
  isPlanChange,
  planChangeForm,
  planChangePreview,
} from "~/features/plans/plan-changes.server";
import { pageTitle } from "~/features/site/meta";
import { taxForClient } from "~/features/tax/client-tax.server";
import { actionResponse, formErrors, parseForm } from "~/ui/form";
import { Page } from "~/ui/page";
import type { Route } from "./+types/plan-change";

export const meta: Route.MetaFunction = ({ data: d, matches }) => [
  { title: pageTitle(d?.preview?.heading ?? "Change a Care Plan", matches) },
  { name: "robots", content: "noindex" },
];

async function changeContext(context: Route.LoaderArgs["context"], userId: string): Promise<ChangeContext> {
  const { runtime } = context;
  return {
    rates: (await runtime.currency.rates.get()).rates,
    taxRatePercent: (await taxForClient(runtime.database.db, runtime.config, userId)).ratePercent,
    noticeDays: runtime.config.plans.renewalNoticeDays,
    now: new Date(),
  };
}

/** Not in the spec (issue 38, item 5): a change to the client's plan, shown with its effect before it is made. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { user } = await requireClient(request, context);
  if (!isPlanChange(params.change)) throw data("Page not found.", { status: 404 });
  const db = context.runtime.database.db;
  const outcome = await planChangePreview(
    db,
    user.id,
    params.subscriptionId,
    params.change,
    await changeContext(context, user.id),
  );
  if (outcome.ok) return { preview: outcome.preview, refused: null, token: newCheckoutToken() };
  if (outcome.status === 404) throw data(outcome.error, { status: 404 });
  // Not possible now (already cancelled, nothing to resume; or just done by this page's own post).
  return data({ preview: null, refused: outcome.error, token: null }, { status: outcome.status });
}

/** After a change is made, its page keeps saying so: the preview it came from no longer applies. */
export function shouldRevalidate({ actionResult, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return actionResult?.ok ? false : defaultShouldRevalidate;
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const { user, client } = await requireClient(request, context);
  const { runtime, logger } = context;
  if (!isPlanChange(params.change)) throw data("Page not found.", { status: 404 });
  const form = Object.fromEntries(await request.formData());
  if (params.change === "card") {
    const token =
      typeof form.token === "string" && /^[A-Za-z0-9_-]{16,64}$/.test(form.token) ? form.token : null;
    if (!token) return actionResponse({ ok: false, status: 400, error: "The form expired. Please reload." });
    const deps = {
      db: runtime.database.db,
      provider: runtime.payments.active,
      publicUrl: runtime.config.publicUrl,
      logger,
    };
    const started = await startCardUpdate(deps, client, params.subscriptionId, token);
    if (started.ok) throw redirect(started.redirectTo);
    return actionResponse(started);
  }
  const parsed = parseForm(planChangeForm, form);
  if (!parsed.ok) return actionResponse(parsed);
  const deps = {
    db: runtime.database.db,
    config: runtime.config,
    actor: { id: user.id, email: user.email },
    wakeOutbox: () => runtime.outbox.wake(),
  };
  const outcome = await confirmPlanChange(
    deps,
    user.id,
    params.subscriptionId,
    params.change,
    parsed.data,
    await changeContext(context, user.id),
  );
  return actionResponse(outcome.ok ? outcome : { ok: false, status: outcome.status, error: outcome.error });
}

export default function PlanChange({ loaderData: d, actionData }: Route.ComponentProps) {
  const { error } = formErrors(actionData);
  const done = actionData?.ok ? actionData.message : null;
  return (
    <Page title={d.preview?.heading ?? "Change a Care Plan"}>
      <PlanChangeView
        preview={d.preview}
        refused={d.refused}
        token={d.token}
        done={done ?? null}
        error={error ?? null}
        busy={useNavigation().state === "submitting"}
      />
    </Page>
  );
}
