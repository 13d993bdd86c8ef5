/**
 * A care plan's editor (issue 38, ADR 0530): `/admin/plans/new` makes one, `/admin/plans/:planId` edits
 * one and takes it off the site or puts it back. One module for both routes.
 */
import { Form, Link, redirect } from "react-router";
import { PlanForm } from "~/features/admin/PlanForm";
import { handlePlanPost } from "~/features/admin/plan-actions.server";
import { adminCatalogueDeps, idParam, requireAdmin } from "~/features/admin/route-helpers.server";
import { Outcome } from "~/features/admin/ui";
import { planFormDefaults } from "~/features/plans/plan-form";
import { getPlan } from "~/features/plans/plans.server";
import { pageTitle } from "~/features/site/meta";
import { Button } from "~/ui/button";
import { Alert } from "~/ui/field";
import { actionResponse, failureOf } from "~/ui/form";
import { Page } from "~/ui/page";
import type { Route } from "./+types/plan-edit";

export const meta: Route.MetaFunction = ({ data, matches }) => [
  {
    title: pageTitle(data?.plan ? `${data.plan.name} · Care plans` : "New care plan · Back Office", matches),
  },
];

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  // The form's values are made here: the page's scripts need not load the form's rules (zod).
  if (params.planId === undefined) return { plan: null, values: planFormDefaults(null), created: false };
  const plan = await getPlan(context.runtime.database.db, idParam(params.planId));
  if (!plan) throw new Response("Not Found", { status: 404 });
  return { plan, values: planFormDefaults(plan), created: new URL(request.url).searchParams.has("created") };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const deps = await adminCatalogueDeps(request, context);
  const planId = params.planId === undefined ? null : idParam(params.planId);
  if (planId && !(await getPlan(deps.db, planId))) throw new Response("Not Found", { status: 404 });
  const result = await handlePlanPost(deps, planId, await request.formData());
  if (result.ok && result.created) return redirect(`/admin/plans/${result.id}?created`);
  return actionResponse(result);
}

export default function AdminPlanEdit({ loaderData, actionData }: Route.ComponentProps) {
  const { plan, created } = loaderData;
  const failure = failureOf(actionData);
  const values = failure?.values ?? loaderData.values;
  return (
    <Page
      title={plan ? `Edit ${plan.name}` : "New care plan"}
      actions={
        <Link to="/admin/plans" className="text-brand-700 underline">
          Care plans
        </Link>
      }
    >
      {created && !actionData && <Alert tone="success">The plan is created.</Alert>}
      <Outcome result={actionData} />
      <PlanForm
        formKey={plan ? `${plan.id}:${plan.updatedAt}` : "new"}
        values={values}
        errors={failure?.fieldErrors ?? {}}
        isNew={!plan}
      />
      {plan && (
        <Form method="post" className="flex flex-wrap items-center gap-3 border-t border-slate-200 pt-6">
          <input type="hidden" name="intent" value={plan.active ? "deactivate" : "activate"} />
          <p className="text-sm text-slate-600">
            {plan.active ? (
              <>
                Shown on{" "}
                <a className="text-brand-700 underline" href="/plans">
                  /plans
                </a>
                .
              </>
            ) : (
              "Not shown on the site."
            )}
          </p>
          <Button type="submit" variant="secondary">
            {plan.active ? "Deactivate plan" : "Activate plan"}
          </Button>
        </Form>
      )}
    </Page>
  );
}
