import { Link } from "react-router";
import { requireClient } from "~/features/accounts/session.server";
import { alertQuoteText, clientAlert } from "~/features/domain-checks/client-domains.server";
import { QuoteRequestForm } from "~/features/quotes/QuoteRequestForm";
import { handleQuoteForm, quotableServices } from "~/features/quotes/quote-action.server";
import { pageTitle } from "~/features/site/meta";
import { Page } from "~/ui/page";
import type { Route } from "./+types/quote-new";
import { usePortalData } from "./shell";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle("Request a Quote", matches) }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireClient(request, context);
  // A domain alert's fix (issue 39): the request starts with what the check found.
  const alertId = new URL(request.url).searchParams.get("alert");
  const alert = alertId ? await clientAlert(context.runtime.database.db, user.id, alertId) : null;
  return {
    services: await quotableServices(context),
    description: alert ? alertQuoteText(alert) : null,
  };
}

/**
 * The request is the signed-in client's: stored with their id and their account's email (whatever the
 * post says), listed on /client/quotes.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const { user } = await requireClient(request, context);
  return handleQuoteForm(await request.formData(), request, context, {
    source: "portal",
    clientId: user.id,
    accountEmail: user.email,
  });
}

export default function QuoteNew({ loaderData }: Route.ComponentProps) {
  const { client } = usePortalData();
  return (
    <Page title="Request a Quote">
      <p className="max-w-2xl text-slate-700">
        Tell us what you need; we send you a quote within 24 hours. Your details are filled in from your
        profile; the quote goes to your account's email.
      </p>
      <div className="max-w-3xl">
        <QuoteRequestForm
          services={loaderData.services}
          action="/client/quotes/new"
          defaults={{
            name: client.name,
            company: client.company,
            ...(loaderData.description ? { description: loaderData.description } : {}),
          }}
          accountEmail={client.email}
          after={
            <Link to="/client/quotes" className="mt-6 inline-block font-semibold text-brand-700 underline">
              See your quote requests
            </Link>
          }
        />
      </div>
    </Page>
  );
}
