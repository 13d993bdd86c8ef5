import { pageOffset } from "~/features/admin/paging";
import { listQuery, requireAdmin } from "~/features/admin/route-helpers.server";
import { AdminList, ClientCell } from "~/features/admin/ui";
import { listQuoteRequests } from "~/features/quotes/quote-requests.server";
import { pageTitle } from "~/features/site/meta";
import { StatusBadge } from "~/ui/badge";
import { formatDateTime } from "~/ui/format";
import { Page } from "~/ui/page";
import { Td } from "~/ui/table";
import type { Route } from "./+types/quotes";

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: pageTitle("Quotes · Back Office", matches) },
];

const FILTERS = ["all", "new", "quoted", "closed"] as const;

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const { url, q, page } = listQuery(request);
  const raw = url.searchParams.get("status");
  const filter = FILTERS.find((f) => f === raw) ?? "all";
  const list = await listQuoteRequests(context.runtime.database.db, {
    ...pageOffset(page),
    q,
    ...(filter === "all" ? {} : { status: filter }),
  });
  return { ...list, page, q, filter };
}

export default function AdminQuotes({ loaderData: d }: Route.ComponentProps) {
  return (
    <Page title="Quote requests">
      <AdminList
        search="Search by name, email, company or description"
        filter={{
          label: "Status",
          current: d.filter,
          options: [
            { value: "all", label: "All" },
            { value: "new", label: "New", count: d.newCount },
            { value: "quoted", label: "Quoted" },
            { value: "closed", label: "Closed" },
          ],
        }}
        list={d}
        caption="Quote requests"
        head={["Received", "From", "Services", "Work", "Budget", "Deadline", "Status"]}
        empty="No quote requests match."
      >
        {d.rows.map((r) => (
          <tr key={r.id} className={r.status === "new" ? "font-semibold" : ""}>
            <Td>{formatDateTime(r.createdAt)}</Td>
            <ClientCell name={r.company ? `${r.name} (${r.company})` : r.name} email={r.email} />
            <Td>{r.services.length > 0 ? r.services.join(", ") : "Something else"}</Td>
            <Td>
              <span className="line-clamp-3 whitespace-pre-line">{r.description}</span>
            </Td>
            <Td>{r.budget ?? "—"}</Td>
            <Td>{r.deadline ?? "—"}</Td>
            <Td>
              <StatusBadge status={r.status} plain />
            </Td>
          </tr>
        ))}
      </AdminList>
    </Page>
  );
}
