import { data, Form, Link, redirect, useNavigation } from "react-router";
import { requireClient } from "~/features/accounts/session.server";
import { Price } from "~/features/currency/Price";
import { newCheckoutToken } from "~/features/orders/orders.server";
import { orderDeps } from "~/features/payments/deps.server";
import { PaymentRouteError } from "~/features/payments/PaymentErrorScreen";
import { calendarDayOf, formatCalendarDay, periodStart } from "~/features/plans/periods";
import { isPlanCycle, planCycles, yearlySaving } from "~/features/plans/plans";
import { offeredPlan, subscribe, subscribeForm } from "~/features/plans/subscribe.server";
import { pageTitle } from "~/features/site/meta";
import { useRootData } from "~/features/site/root-data";
import { Button } from "~/ui/button";
import { Card } from "~/ui/card";
import { actionResponse, formErrors, parseForm } from "~/ui/form";
import { Page } from "~/ui/page";
import type { Route } from "./+types/plan-subscribe";

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: pageTitle("Subscribe to a Care Plan", matches) },
  { name: "robots", content: "noindex" },
];

/** Not in the spec (issue 38, item 2): a plan and its cycle, shown with what is charged when. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireClient(request, context);
  const plan = await offeredPlan(context.runtime.database.db, params.slug);
  if (!plan) throw data("This care plan is not offered.", { status: 404 });
  const asked = new URL(request.url).searchParams.get("cycle");
  const cycles = planCycles(plan);
  const today = calendarDayOf(new Date());
  return {
    plan: {
      slug: plan.slug,
      name: plan.name,
      description: plan.description,
      monthlyPriceUsd: plan.monthlyPriceUsd,
      yearlyPriceUsd: plan.yearlyPriceUsd,
      incidentAllowance: plan.incidentAllowance,
      saving: yearlySaving(plan)?.label ?? null,
    },
    cycles,
    chosen: isPlanCycle(asked) && cycles.includes(asked) ? asked : cycles[0]!,
    today: formatCalendarDay(today),
    nextMonth: formatCalendarDay(periodStart(today, "monthly", 1)),
    nextYear: formatCalendarDay(periodStart(today, "yearly", 1)),
    checkoutToken: newCheckoutToken(),
    noticeDays: context.runtime.config.plans.renewalNoticeDays,
  };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const { client } = await requireClient(request, context);
  const parsed = parseForm(subscribeForm, Object.fromEntries(await request.formData()));
  if (!parsed.ok) return actionResponse(parsed);
  // Only the plan and the cycle are read from the form; the price is the catalogue's.
  const outcome = await subscribe(
    { ...orderDeps(context), provider: context.runtime.payments.active },
    { client, slug: params.slug, ...parsed.data },
  );
  if (outcome.ok) throw redirect(outcome.redirectTo);
  return actionResponse({ ok: false, status: outcome.status, error: outcome.error });
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const root = useRootData();
  return <PaymentRouteError error={error} supportEmail={root?.business.email ?? "support@portico.example"} />;
}

export default function PlanSubscribe({ loaderData: d, actionData }: Route.ComponentProps) {
  const root = useRootData();
  const busy = useNavigation().state === "submitting";
  const { error } = formErrors(actionData);
  return (
    <Page title={`Subscribe to ${d.plan.name}`}>
      <p className="max-w-2xl text-slate-700">{d.plan.description}</p>
      <Card title="Your plan">
        <Form method="post" className="space-y-5">
          <input type="hidden" name="checkoutToken" value={d.checkoutToken} />
          <input type="hidden" name="currency" value={root.currency.currency} />
          <fieldset className="space-y-3">
            <legend className="mb-2 font-semibold">Pay monthly or yearly</legend>
            {d.cycles.map((cycle) => (
              <label
                key={cycle}
                className="flex flex-wrap items-baseline gap-2 rounded-lg border border-slate-200 p-3"
              >
                <input type="radio" name="cycle" value={cycle} defaultChecked={cycle === d.chosen} />
                <span className="font-medium">{cycle === "monthly" ? "Monthly" : "Yearly"}</span>
                <Price
                  usd={(cycle === "monthly" ? d.plan.monthlyPriceUsd : d.plan.yearlyPriceUsd) ?? 0}
                  showUsd
                />
                <span className="text-sm text-slate-600">
                  {cycle === "monthly"
                    ? `now for ${d.today} to ${d.nextMonth}, then each month`
                    : `now for ${d.today} to ${d.nextYear}, then each year${d.plan.saving ? ` (${d.plan.saving})` : ""}`}
                </span>
              </label>
            ))}
          </fieldset>
          <ul className="list-disc space-y-1 pl-5 text-sm text-slate-700">
            <li>You pay the first period now. The card you pay with is saved for the renewals.</li>
            <li>
              Each renewal invoice is emailed {d.noticeDays} days before its period and charged on the day it
              starts, in your currency at that day's rate.
            </li>
            <li>
              {d.plan.incidentAllowance} support {d.plan.incidentAllowance === 1 ? "incident" : "incidents"}{" "}
              per period included. You can change the card, switch between monthly and yearly, or cancel from
              Care Plans at any time: a cancelled plan ends with its period.
            </li>
          </ul>
          {error && (
            <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800">
              {error}
            </p>
          )}
          <div className="flex flex-wrap items-center gap-4">
            <Button type="submit" disabled={busy}>
              Subscribe and pay
            </Button>
            <Link to="/plans" className="text-sm font-medium text-brand-700 underline">
              Compare the plans
            </Link>
          </div>
        </Form>
      </Card>
    </Page>
  );
}
