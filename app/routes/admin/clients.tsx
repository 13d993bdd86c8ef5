import { listClients } from "~/features/admin/client-pages.server";
import { listQuery, requireAdmin } from "~/features/admin/route-helpers.server";
import { AdminList, LINKED_ROW, RowLink } from "~/features/admin/ui";
import { pageTitle } from "~/features/site/meta";
import { StatusBadge } from "~/ui/badge";
import { formatDate } from "~/ui/format";
import { Page } from "~/ui/page";
import { Td } from "~/ui/table";
import type { Route } from "./+types/clients";

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: pageTitle("Clients · Back Office", matches) },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const { q, page } = listQuery(request);
  return { ...(await listClients(context.runtime.database.db, { q, page })), q };
}

export default function AdminClients({ loaderData: d }: Route.ComponentProps) {
  return (
    <Page title="Clients">
      <AdminList
        search="Search by name, email or company"
        list={d}
        caption="Clients"
        head={["Name", "Email", "Company", "Orders", "Email", "Joined"]}
        empty="No clients match."
      >
        {d.rows.map((c) => (
          <tr key={c.id} className={LINKED_ROW}>
            <Td>
              <RowLink to={`/admin/clients/${c.id}`}>{c.name}</RowLink>
            </Td>
            <Td>{c.email}</Td>
            <Td>{c.company ?? "—"}</Td>
            <Td className="tabular-nums">{c.orders}</Td>
            <Td>
              <StatusBadge status={c.verified ? "verified" : "unverified"} />
            </Td>
            <Td>{formatDate(c.createdAt)}</Td>
          </tr>
        ))}
      </AdminList>
    </Page>
  );
}
