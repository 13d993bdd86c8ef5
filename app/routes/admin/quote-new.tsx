import { redirect } from "react-router";
import { QuoteEditor } from "~/features/admin/QuoteEditor";
import { QuotePreviewStep } from "~/features/admin/QuotePreviewStep";
import { editorChoices, handleQuotePost } from "~/features/admin/quote-pages.server";
import { adminQuoteDeps, requireAdmin } from "~/features/admin/route-helpers.server";
import { Outcome } from "~/features/admin/ui";
import { newQuoteValues, postedValues } from "~/features/quotes/quote-form";
import { getQuoteRequest } from "~/features/quotes/quote-requests.server";
import { pageTitle } from "~/features/site/meta";
import { ButtonLink } from "~/ui/button";
import { actionResponse, failureOf } from "~/ui/form";
import { Page } from "~/ui/page";
import type { Route } from "./+types/quote-new";

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: pageTitle("New quote · Back Office", matches) },
];

/** A new quote; `?request={id}` writes it from a quote request (its requester and description). */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const db = context.runtime.database.db;
  const requestId = new URL(request.url).searchParams.get("request");
  const from = requestId
    ? /^[0-9a-f-]{36}$/i.test(requestId)
      ? await getQuoteRequest(db, requestId)
      : null
    : null;
  if (requestId && !from) throw new Response("Not Found", { status: 404 });
  return {
    values: newQuoteValues(new Date(), from),
    choices: await editorChoices(db),
    from: from?.name ?? null,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const deps = await adminQuoteDeps(request, context);
  const result = await handleQuotePost(deps, null, postedValues(await request.formData()));
  if (result.redirectTo) throw redirect(result.redirectTo);
  return actionResponse(result);
}

export default function AdminQuoteNew({ loaderData: d, actionData }: Route.ComponentProps) {
  return (
    <Page
      title={d.from ? `New quote for ${d.from}` : "New quote"}
      actions={
        <ButtonLink to="/admin/quotes" variant="secondary">
          All quotes
        </ButtonLink>
      }
    >
      <Outcome result={actionData} />
      {actionData?.ok && actionData.preview ? (
        <QuotePreviewStep preview={actionData.preview} />
      ) : (
        <QuoteEditor
          values={(actionData?.ok ? actionData.editor : failureOf(actionData)?.values) ?? d.values}
          choices={d.choices}
        />
      )}
    </Page>
  );
}
