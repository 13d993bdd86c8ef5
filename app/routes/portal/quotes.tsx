import { Link } from "react-router";
import { requireClient } from "~/features/accounts/session.server";
import { formatMoney } from "~/features/money/format";
import { listClientQuotes } from "~/features/quotes/quote-queries.server";
import { listClientQuoteRequests } from "~/features/quotes/quote-requests.server";
import { shownQuoteStatus } from "~/features/quotes/quote-status";
import { QUOTE_STATUS_LABELS } from "~/features/quotes/quote-view";
import { pageTitle } from "~/features/site/meta";
import { StatusBadge } from "~/ui/badge";
import { ButtonLink } from "~/ui/button";
import { Card } from "~/ui/card";
import { formatDate } from "~/ui/format";
import { Page } from "~/ui/page";
import { DataTable, Td } from "~/ui/table";
import { useTimeZone } from "~/ui/time-zone";
import type { Route } from "./+types/quotes";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle("Quotes", matches) }];

/**
 * Not in the spec (issue "quotes"): the signed-in client's quotes (sent to them, or to their address
 * before they had an account; never a draft) and their own requests for custom work.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { user, client } = await requireClient(request, context);
  const db = context.runtime.database.db;
  const [quotes, requests] = await Promise.all([
    listClientQuotes(db, client),
    listClientQuoteRequests(db, user.id),
  ]);
  const today = new Date();
  return {
    quotes: quotes.map((q) => {
      const status = shownQuoteStatus(q, today);
      return {
        id: q.id,
        number: q.quoteNumber ?? "",
        total: q.totalUsd,
        status,
        label: QUOTE_STATUS_LABELS[status],
        validUntil: q.validUntil,
        sentAt: q.sentAt,
      };
    }),
    requests,
  };
}

const linkClass = "font-medium text-brand-700 underline";

export default function Quotes({ loaderData }: Route.ComponentProps) {
  const { quotes, requests } = loaderData;
  const tz = useTimeZone();
  return (
    <Page title="Quotes" actions={<ButtonLink to="/client/quotes/new">Request a Quote</ButtonLink>}>
      <p className="max-w-2xl text-slate-700">
        Work outside the catalogue (a large migration, a rollout over many domains) is sold by quote. Ask for
        one and we answer within 24 hours.
      </p>
      <Card title="Your quotes">
        {quotes.length === 0 ? (
          <p className="text-slate-600">No quote has been sent to you yet.</p>
        ) : (
          <DataTable caption="Your quotes" head={["Quote", "Sent", "Total", "Valid until", "Status"]}>
            {quotes.map((q) => (
              <tr key={q.id} data-quote-id={q.id}>
                <Td className="whitespace-nowrap">
                  <Link to={`/client/quotes/${q.id}`} className={linkClass}>
                    {q.number}
                  </Link>
                </Td>
                <Td className="whitespace-nowrap">{formatDate(q.sentAt, "medium", tz)}</Td>
                <Td className="whitespace-nowrap font-medium">{formatMoney(q.total, "USD")}</Td>
                <Td className="whitespace-nowrap">{formatDate(`${q.validUntil}T00:00:00Z`)}</Td>
                <Td>
                  <StatusBadge status={q.status} label={q.label} />
                </Td>
              </tr>
            ))}
          </DataTable>
        )}
      </Card>
      <Card title="Your quote requests">
        {requests.length === 0 ? (
          <p className="text-slate-600">You have not asked for a quote yet.</p>
        ) : (
          <ul className="divide-y divide-slate-200">
            {requests.map((r) => (
              <li key={r.id} className="py-4" data-testid="quote-request">
                <div className="flex flex-wrap items-center gap-3">
                  <StatusBadge status={r.status === "new" ? "received" : r.status} />
                  <span className="text-sm text-slate-600">
                    Asked {formatDate(r.createdAt, "medium", tz)}
                  </span>
                  {r.deadline && <span className="text-sm text-slate-600">Deadline {r.deadline}</span>}
                  {r.budget && <span className="text-sm text-slate-600">Budget {r.budget}</span>}
                </div>
                <p className="mt-2 font-semibold">
                  {r.services.length > 0 ? r.services.join(", ") : "Something else"}
                </p>
                <p className="mt-1 line-clamp-3 whitespace-pre-line text-slate-700">{r.description}</p>
              </li>
            ))}
          </ul>
        )}
      </Card>
    </Page>
  );
}
