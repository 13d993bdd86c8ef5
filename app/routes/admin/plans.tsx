/** The back office's care plans (issue 38, ADR 0530): every plan, active or not, and a new one. */
import { Link } from "react-router";
import { requireAdmin } from "~/features/admin/route-helpers.server";
import { formatMoney } from "~/features/money/format";
import { listAllPlans } from "~/features/plans/plans.server";
import { pageTitle } from "~/features/site/meta";
import { buttonClass } from "~/ui/button";
import { ListView } from "~/ui/list";
import { Page } from "~/ui/page";
import { Td } from "~/ui/table";
import type { Route } from "./+types/plans";

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: pageTitle("Care plans · Back Office", matches) },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  return { plans: await listAllPlans(context.runtime.database.db) };
}

const price = (usd: number | null) => (usd === null ? "—" : formatMoney(usd, "USD"));

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
      {/* Subscribers, monthly recurring revenue and renewals due (issue 38, item 7) come above the list. */}
      <ListView
        label="Care plans"
        caption="Care plans"
        head={["Plan", "Monthly", "Yearly", "Incidents per period", "Domains watched", "Status"]}
      >
        {d.plans.map((p) => (
          <tr key={p.id}>
            <Td>
              <Link to={`/admin/plans/${p.id}`} className="text-brand-700 underline">
                {p.name}
              </Link>
            </Td>
            <Td>{price(p.monthlyPriceUsd)}</Td>
            <Td>{price(p.yearlyPriceUsd)}</Td>
            <Td>{p.incidentAllowance}</Td>
            <Td>{p.watchedDomains}</Td>
            <Td>{p.active ? "Active" : "Inactive"}</Td>
          </tr>
        ))}
      </ListView>
    </Page>
  );
}
