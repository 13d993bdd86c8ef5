import { data, Form, Link, redirect, useNavigation } from "react-router";
import { requireClient } from "~/features/accounts/session.server";
import { newCheckoutToken } from "~/features/orders/orders.server";
import { startCardUpdate } from "~/features/plans/plan-cards.server";
import {
  type ChangeContext,
  confirmPlanChange,
  isPlanChange,
  planChangeForm,
  planChangePreview,
} from "~/features/plans/plan-changes.server";
import { pageTitle } from "~/features/site/meta";
import { Button } from "~/ui/button";
import { Card } from "~/ui/card";
import { actionResponse, formErrors, parseForm } from "~/ui/form";
import { Page } from "~/ui/page";
import type { Route } from "./+types/plan-change";

export const meta: Route.MetaFunction = ({ data: d, matches }) => [
  { title: pageTitle(d?.preview?.heading ?? "Change a Care Plan", matches) },
  { name: "robots", content: "noindex" },
];

async function changeContext(context: Route.LoaderArgs["context"]): Promise<ChangeContext> {
  const { runtime } = context;
  return {
    rates: (await runtime.currency.rates.get()).rates,
    taxRatePercent: runtime.config.invoices.taxRatePercent,
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
    await changeContext(context),
  );
  if (outcome.ok) return { preview: outcome.preview, refused: null, token: newCheckoutToken() };
  if (outcome.status === 404) throw data(outcome.error, { status: 404 });
  // Not possible now (already cancelled, nothing to resume; or just done by this page's own post).
  return data({ preview: null, refused: outcome.error, token: null }, { status: outcome.status });
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
    await changeContext(context),
  );
  return actionResponse(outcome.ok ? outcome : { ok: false, status: outcome.status, error: outcome.error });
}

export default function PlanChange({ loaderData: d, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  const { error } = formErrors(actionData);
  const done = actionData?.ok ? actionData.message : null;
  const { preview } = d;
  return (
    <Page title={preview?.heading ?? "Change a Care Plan"}>
      <Card title={done ? "Done" : "What this changes"}>
        {done || !preview ? (
          <p role={done ? "status" : "alert"} className="text-slate-800">
            {done ?? d.refused}
          </p>
        ) : (
          <>
            <ul className="list-disc space-y-2 pl-5 text-slate-800" data-testid="plan-change-lines">
              {preview.lines.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
            {preview.payInvoice && (
              <form method="post" action={`/client/invoices/${preview.payInvoice.id}/pay`} className="mt-5">
                <Button type="submit">
                  {`Pay invoice ${preview.payInvoice.number} (${preview.payInvoice.amount}) with a new card`}
                </Button>
              </form>
            )}
            <Form method="post" className="mt-5 space-y-4">
              <input type="hidden" name="shown" value={preview.shown} />
              <input type="hidden" name="token" value={d.token ?? ""} />
              {preview.asksReason && (
                <div>
                  <label htmlFor="plan-change-reason" className="block font-medium">
                    Why are you cancelling? (optional)
                  </label>
                  <textarea
                    id="plan-change-reason"
                    name="reason"
                    rows={3}
                    maxLength={500}
                    className="mt-1 w-full max-w-xl rounded-lg border border-slate-300 px-3 py-2"
                  />
                </div>
              )}
              {error && (
                <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800">
                  {error}
                </p>
              )}
              <div className="flex flex-wrap items-center gap-4">
                <Button type="submit" disabled={busy} variant={preview.payInvoice ? "secondary" : "primary"}>
                  {preview.confirmLabel}
                </Button>
                <Link to="/client/plans" className="text-sm font-medium text-brand-700 underline">
                  Keep the plan as it is
                </Link>
              </div>
            </Form>
          </>
        )}
        {(done || !preview) && (
          <p className="mt-4">
            <Link to="/client/plans" className="font-medium text-brand-700 underline">
              Back to your care plans
            </Link>
          </p>
        )}
      </Card>
    </Page>
  );
}
