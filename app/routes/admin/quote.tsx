import { redirect } from "react-router";
import { QuoteEditor } from "~/features/admin/QuoteEditor";
import { QuotePreviewStep } from "~/features/admin/QuotePreviewStep";
import { QuoteAmounts, QuoteDetails, QuoteTerms, ReviseForm } from "~/features/admin/QuoteView";
import { doneOutcome, editorChoices, handleQuotePost, quotePage } from "~/features/admin/quote-pages.server";
import { adminQuoteDeps, idParam, requireAdmin } from "~/features/admin/route-helpers.server";
import { HistoryList, Outcome } from "~/features/admin/ui";
import { draftValues, postedValues } from "~/features/quotes/quote-form";
import { pageTitle } from "~/features/site/meta";
import { ButtonLink } from "~/ui/button";
import { Card } from "~/ui/card";
import { actionResponse, failureOf } from "~/ui/form";
import { Page } from "~/ui/page";
import type { Route } from "./+types/quote";

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: pageTitle("Quote · Back Office", matches) },
];

/** A draft opens in the editor; a sent quote (and what became of it) is read only. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const db = context.runtime.database.db;
  const page = await quotePage(db, idParam(params.quoteId));
  if (!page) throw new Response("Not Found", { status: 404 });
  const draft = page.quote.status === "draft";
  return {
    ...page,
    editor: draft ? { values: draftValues(page.quote), choices: await editorChoices(db) } : null,
    done: doneOutcome(new URL(request.url).searchParams.get("done"), page.quote, page.supersedes),
  };
}

/** `intent=save`, `preview`, `send`, `add-line` or `edit` (a draft's editor), `intent=revise` (a sent quote). */
export async function action({ request, context, params }: Route.ActionArgs) {
  const deps = await adminQuoteDeps(request, context);
  const result = await handleQuotePost(deps, idParam(params.quoteId), postedValues(await request.formData()));
  if (result.redirectTo) throw redirect(result.redirectTo);
  return actionResponse(result);
}

export default function AdminQuote({ loaderData: d, actionData }: Route.ComponentProps) {
  const { quote } = d;
  const title = quote.quoteNumber ? `Quote ${quote.quoteNumber}` : `Draft quote for ${quote.name}`;
  return (
    <Page
      title={title}
      actions={
        <ButtonLink to="/admin/quotes" variant="secondary">
          All quotes
        </ButtonLink>
      }
    >
      <Outcome result={actionData ?? d.done} />
      <QuoteDetails quote={quote} supersedes={d.supersedes} revisions={d.revisions} />
      {actionData?.ok && actionData.preview ? (
        <QuotePreviewStep preview={actionData.preview} />
      ) : (
        <QuoteAmounts
          quote={quote}
          figures={d.figures}
          title={d.editor ? "Amounts as saved" : "Lines and amounts"}
        />
      )}
      {actionData?.ok && actionData.preview ? null : d.editor ? (
        <QuoteEditor
          values={(actionData?.ok ? actionData.editor : failureOf(actionData)?.values) ?? d.editor.values}
          choices={d.editor.choices}
        />
      ) : (
        <>
          <QuoteTerms terms={quote.terms} />
          {quote.status === "sent" && <ReviseForm />}
        </>
      )}
      <Card title="History">
        <HistoryList entries={d.history} />
      </Card>
    </Page>
  );
}
