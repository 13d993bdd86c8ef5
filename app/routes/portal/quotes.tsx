import { requireClient } from "~/features/accounts/session.server";
import { listClientQuoteRequests } from "~/features/quotes/quote-requests.server";
import { pageTitle } from "~/features/site/meta";
import { StatusBadge } from "~/ui/badge";
import { ButtonLink } from "~/ui/button";
import { Card } from "~/ui/card";
import { formatDate } from "~/ui/format";
import { Page } from "~/ui/page";
import type { Route } from "./+types/quotes";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle("Quotes", matches) }];

/** Not in the spec (issue "quotes"): the signed-in client's own requests for custom work. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireClient(request, context);
  return { requests: await listClientQuoteRequests(context.runtime.database.db, user.id) };
}

export default function Quotes({ loaderData }: Route.ComponentProps) {
  const { requests } = loaderData;
  return (
    <Page title="Quotes" actions={<ButtonLink to="/client/quotes/new">Request a Quote</ButtonLink>}>
      <p className="max-w-2xl text-slate-700">
        Work outside the catalogue (a large migration, a rollout over many domains) is sold by quote. Ask for
        one and we answer within 24 hours.
      </p>
      <Card title="Your quote requests">
        {requests.length === 0 ? (
          <p className="text-slate-600">You have not asked for a quote yet.</p>
        ) : (
          <ul className="divide-y divide-slate-200">
            {requests.map((r) => (
              <li key={r.id} className="py-4" data-testid="quote-request">
                <div className="flex flex-wrap items-center gap-3">
                  <StatusBadge status={r.status === "new" ? "received" : r.status} />
                  <span className="text-sm text-slate-600">Asked {formatDate(r.createdAt)}</span>
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
