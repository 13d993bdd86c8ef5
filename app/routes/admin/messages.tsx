import { Link, useLocation } from "react-router";
import { messageFilters } from "~/features/admin/filters";
import { listMessages } from "~/features/admin/messages.server";
import { listQuery, requireAdmin } from "~/features/admin/route-helpers.server";
import { DataTable, EmptyRow, FilterChips, Pager, SearchBox, Td } from "~/features/admin/ui";
import { pageTitle } from "~/features/site/meta";
import { StatusBadge } from "~/ui/badge";
import { formatDateTime } from "~/ui/format";
import { Page } from "~/ui/page";
import type { Route } from "./+types/messages";

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: pageTitle("Messages · Back Office", matches) },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const { url, q, page } = listQuery(request);
  const raw = url.searchParams.get("status");
  const filter = messageFilters.find((f) => f === raw) ?? "all";
  return { ...(await listMessages(context.runtime.database.db, { q, filter, page })), q, filter };
}

export default function AdminMessages({ loaderData: d }: Route.ComponentProps) {
  const location = useLocation();
  return (
    <Page title="Messages">
      <SearchBox
        label="Search by name, email or subject"
        q={d.q}
        keep={{ status: d.filter === "all" ? null : d.filter }}
      />
      <FilterChips
        label="Read state"
        pathname={location.pathname}
        search={location.search}
        param="status"
        current={d.filter}
        options={[
          { value: "all", label: "All" },
          { value: "unread", label: "Unread", count: d.unread },
          { value: "read", label: "Read" },
        ]}
      />
      <DataTable caption="Contact messages" head={["Received", "From", "Subject", "Source", "State"]}>
        {d.rows.length === 0 && <EmptyRow columns={5}>No messages match.</EmptyRow>}
        {d.rows.map((m) => (
          <tr key={m.id} className={m.readAt ? "" : "font-semibold"}>
            <Td>{formatDateTime(m.createdAt)}</Td>
            <Td>
              {m.name}
              <br />
              <span className="font-normal text-slate-600">{m.email}</span>
            </Td>
            <Td>
              <Link to={`/admin/messages/${m.id}`} className="text-brand-700 underline">
                {m.subject}
              </Link>
            </Td>
            <Td>{m.source}</Td>
            <Td>
              <StatusBadge status={m.readAt ? "read" : "unread"} plain />
            </Td>
          </tr>
        ))}
      </DataTable>
      <Pager pathname={location.pathname} search={location.search} page={d.page} total={d.total} />
    </Page>
  );
}
