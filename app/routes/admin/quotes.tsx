import { Link } from "react-router";
import { listQuery, requireAdmin } from "~/features/admin/route-helpers.server";
import { AdminList, ClientCell } from "~/features/admin/ui";
import { pageOffset } from "~/features/lists/listing";
import { formatMoney } from "~/features/money/format";
import { listQuotes } from "~/features/quotes/quote-queries.server";
import { listQuoteRequests } from "~/features/quotes/quote-requests.server";
import { shownQuoteStatus } from "~/features/quotes/quote-status";
import { pageTitle } from "~/features/site/meta";
import { StatusBadge } from "~/ui/badge";
import { ButtonLink } from "~/ui/button";
import { cardClass } from "~/ui/card-class";
import { formatDate, formatDateTime } from "~/ui/format";
import { EmptyState } from "~/ui/list";
import { Page } from "~/ui/page";
import { DataTable, Td } from "~/ui/table";
import type { Route } from "./+types/quotes";

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: pageTitle("Quotes · Back Office", matches) },
];

const FILTERS = ["all", "new", "quoted", "closed"] as const;

/** The quotes (newest first, drafts included), then the requests for one (searchable, paged). */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const db = context.runtime.database.db;
  const { url, q, page } = listQuery(request);
  const raw = url.searchParams.get("status");
  const filter = FILTERS.find((f) => f === raw) ?? "all";
  const [list, quoteRows] = await Promise.all([
    listQuoteRequests(db, {
      ...pageOffset(page),
      q,
      ...(filter === "all" ? {} : { status: filter }),
    }),
    listQuotes(db),
  ]);
  const now = new Date();
  const quotes = quoteRows.map((r) => ({
    id: r.id,
    quoteNumber: r.quoteNumber,
    name: r.name,
    email: r.email,
    company: r.company,
    totalUsd: r.totalUsd,
    // A sent quote past its day reads expired, as on the client's pages.
    status: shownQuoteStatus(r, now),
    validUntil: r.validUntil,
    sentAt: r.sentAt,
  }));
  return { ...list, page, q, filter, quotes };
}

export default function AdminQuotes({ loaderData: d }: Route.ComponentProps) {
  return (
    <Page title="Quotes" actions={<ButtonLink to="/admin/quotes/new">New quote</ButtonLink>}>
      <section aria-labelledby="quotes-heading" className="space-y-3">
        <h2 id="quotes-heading" className="text-lg font-bold">
          Quotes
        </h2>
        <div className={cardClass("overflow-hidden")}>
          {d.quotes.length === 0 ? (
            <EmptyState title="No quotes yet." text="Write one from a request below, or start a new quote." />
          ) : (
            <DataTable
              caption="Quotes, newest first"
              head={["Number", "Recipient", "Total", "Status", "Valid until", "Sent"]}
            >
              {d.quotes.map((r) => (
                <tr key={r.id}>
                  <Td>
                    <Link className="font-semibold text-brand-700 underline" to={`/admin/quotes/${r.id}`}>
                      {r.quoteNumber ?? "Draft"}
                      {!r.quoteNumber && <span className="sr-only"> for {r.name}</span>}
                    </Link>
                  </Td>
                  <ClientCell name={r.company ? `${r.name} (${r.company})` : r.name} email={r.email} />
                  <Td className="whitespace-nowrap tabular-nums">{formatMoney(r.totalUsd, "USD")}</Td>
                  <Td>
                    <StatusBadge status={r.status} />
                  </Td>
                  <Td className="whitespace-nowrap">{formatDate(r.validUntil)}</Td>
                  <Td className="whitespace-nowrap">{formatDateTime(r.sentAt)}</Td>
                </tr>
              ))}
            </DataTable>
          )}
        </div>
      </section>
      {/* The list's own card is the region named "Quote requests". */}
      <div className="space-y-3">
        <h2 className="text-lg font-bold">Quote requests</h2>
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
          head={["Received", "From", "Services", "Work", "Budget and deadline", "Status"]}
          empty="No quote requests match."
        >
          {d.rows.map((r) => (
            <tr key={r.id} className={r.status === "new" ? "font-semibold" : ""}>
              {/* The action first: at 1280 px the last of eight columns was off the right edge. */}
              <Td className="whitespace-nowrap">
                {formatDateTime(r.createdAt)}
                <br />
                <Link className="text-brand-700 underline" to={`/admin/quotes/new?request=${r.id}`}>
                  Write a quote<span className="sr-only"> for {r.name}</span>
                </Link>
              </Td>
              <ClientCell name={r.company ? `${r.name} (${r.company})` : r.name} email={r.email} />
              <Td className="min-w-32">{r.services.length > 0 ? r.services.join(", ") : "Something else"}</Td>
              <Td className="min-w-48">
                <span className="line-clamp-3 whitespace-pre-line wrap-anywhere">{r.description}</span>
              </Td>
              <Td>
                {r.budget ?? "No budget given"}
                <br />
                <span className="text-slate-600">{r.deadline ?? "No deadline"}</span>
              </Td>
              <Td>
                <StatusBadge status={r.status} />
              </Td>
            </tr>
          ))}
        </AdminList>
      </div>
    </Page>
  );
}
