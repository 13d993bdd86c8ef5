/**
 * The back office's care plans (issue 38; ADR 0530, ADR 0531 "Owner's view"): subscribers, monthly
 * recurring revenue and renewals due above the plan list; renewals of the next 30 days, past-due and
 * suspended plans, cancellations; every plan with its subscribers, and the subscribers' list (`q`, `page`).
 */
import { Link } from "react-router";
import {
  Cancellations,
  PlanFigures,
  PlanList,
  RenewalsDue,
  SubscriberList,
  TroubledPlans,
} from "~/features/admin/CarePlansOverview";
import { listQuery, requireAdmin } from "~/features/admin/route-helpers.server";
import { listSubscribers, plansOverview } from "~/features/plans/plan-subscribers.server";
import { listAllPlans } from "~/features/plans/plans.server";
import { pageTitle } from "~/features/site/meta";
import { buttonClass } from "~/ui/button";
import { Page } from "~/ui/page";
import type { Route } from "./+types/plans";

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: pageTitle("Care plans · Back Office", matches) },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const db = context.runtime.database.db;
  const { q, page } = listQuery(request);
  const now = new Date();
  const [plans, overview, subscribers] = await Promise.all([
    listAllPlans(db),
    plansOverview(db, now),
    listSubscribers(db, { q, page }, now),
  ]);
  return { plans, overview, subscribers: { ...subscribers, q } };
}

export default function AdminPlans({ loaderData: d }: Route.ComponentProps) {
  return (
    <Page
      title="Care plans"
      actions={
        <Link to="/admin/plans/new" className={buttonClass("primary")}>
          New plan
        </Link>
      }
    >
      <PlanFigures figures={d.overview.figures} />
      <RenewalsDue renewals={d.overview.renewals} />
      <TroubledPlans plans={d.overview.troubled} />
      <Cancellations cancellations={d.overview.cancellations} />
      <h2 className="text-lg font-bold">Plans</h2>
      <PlanList plans={d.plans} subscribers={d.overview.subscribersByPlan} />
      <h2 className="text-lg font-bold">Subscribers</h2>
      <SubscriberList list={d.subscribers} />
    </Page>
  );
}
