import { Link } from "react-router";
import { requireAdmin } from "~/features/admin/route-helpers.server";
import { listCatalogue } from "~/features/catalogue/catalogue-edit.server";
import { formatMoney } from "~/features/money/format";
import { pageTitle } from "~/features/site/meta";
import { formatDateTime } from "~/ui/format";
import { ListView } from "~/ui/list";
import { Page } from "~/ui/page";
import { Td } from "~/ui/table";
import type { Route } from "./+types/catalogue";

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: pageTitle("Catalogue · Back Office", matches) },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  return { services: await listCatalogue(context.runtime.database.db) };
}

export default function AdminCatalogue({ loaderData: d }: Route.ComponentProps) {
  return (
    <Page title="Catalogue">
      <ListView label="Services" caption="Services" head={["Service", "Category", "Packages", "Updated"]}>
        {d.services.map((s) => (
          <tr key={s.id}>
            <Td>
              <Link to={`/admin/catalogue/${s.id}`} className="text-brand-700 underline">
                {s.name}
              </Link>
              {!s.active && <span className="ml-2 text-slate-600">(inactive)</span>}
            </Td>
            <Td>{s.category}</Td>
            <Td>
              {s.packageOrder
                .map((p) => `${s.packageNames[p] ?? p}: ${formatMoney(s.pricing[p] ?? 0, "USD")}`)
                .join(" · ")}
            </Td>
            <Td>{formatDateTime(s.updatedAt)}</Td>
          </tr>
        ))}
      </ListView>
    </Page>
  );
}
