/**
 * The client's quote page (`/client/quotes/{id}`, issue "quotes"): the quote as a document with its
 * terms in full, then, while it is open, Accept (the terms ticked, the full name typed as signature)
 * and Decline (a reason if any). Both are plain forms: they work before and without JavaScript. A quote
 * that is no longer open shows where it stands instead (accepted: its order and invoices).
 */
import { useId } from "react";
import { Form, Link, useNavigation } from "react-router";
import { PdfDownloadLink } from "~/features/invoices/DocumentParts";
import { StatusBadge } from "~/ui/badge";
import { ButtonLink, buttonClass } from "~/ui/button";
import { cardClass } from "~/ui/card-class";
import { Alert, FormError, TextAreaField, TextField } from "~/ui/field";
import { failureOf, formErrors } from "~/ui/form";
import type { ClientQuotePageResult, ClientQuotePage as PageData } from "./client-quote.server";
import { QuoteDocument } from "./QuoteDocument";

const KIND_LABELS: Record<string, string> = { deposit: "Deposit", balance: "Balance", full: "Invoice" };

function AcceptForm({
  quote,
  accountName,
  result,
}: {
  quote: PageData["quote"];
  accountName: string;
  result: Extract<ClientQuotePageResult, { intent: "accept" }> | undefined;
}) {
  const id = useId();
  const busy = useNavigation().formData?.get("intent") === "accept";
  // A refusal the fields do not show (the quote changed meanwhile) is the form's alert.
  const { alert, fieldErrors } = formErrors(result);
  const termsError = fieldErrors.terms;
  const typed = result?.values;
  // Open when the client said they accept for a company, or a company field has something to say.
  const companyOpen = Boolean(typed?.forCompany || fieldErrors.company || fieldErrors.signer);
  const payNow = quote.deposit ? `the deposit of ${quote.deposit.amount}` : `the total of ${quote.total}`;
  return (
    <section aria-labelledby={`${id}-title`} className={cardClass("p-5")}>
      <h2 id={`${id}-title`} className="text-lg font-bold">
        Accept this quote
      </h2>
      <p className="mt-1 text-sm text-slate-700">
        Accepting places the order and issues its invoice for {payNow}; you go straight on to pay it.
        {quote.deposit && " The balance is invoiced when the work is complete."}
      </p>
      {alert && (
        <div className="mt-3">
          <FormError message={alert} />
        </div>
      )}
      <Form method="post" className="mt-4 space-y-4">
        <input type="hidden" name="intent" value="accept" />
        <div>
          <div className="flex items-start gap-2">
            <input
              id={`${id}-terms`}
              type="checkbox"
              name="terms"
              value="on"
              required
              aria-invalid={termsError ? true : undefined}
              aria-describedby={termsError ? `${id}-terms-error` : "quote-terms"}
              className="mt-1 size-4"
            />
            <label htmlFor={`${id}-terms`} className="text-sm font-medium text-slate-800">
              I accept the terms above
            </label>
          </div>
          {termsError && (
            <p id={`${id}-terms-error`} className="mt-1 text-sm text-red-700">
              {termsError}
            </p>
          )}
        </div>
        <details open={companyOpen} className="rounded-lg border border-slate-200 p-3">
          <summary className="cursor-pointer text-sm font-medium text-slate-800">
            Accepting for a company?
          </summary>
          <div className="mt-3 space-y-3">
            <div className="flex items-start gap-2">
              <input
                id={`${id}-for-company`}
                type="checkbox"
                name="forCompany"
                value="on"
                defaultChecked={typed?.forCompany === "on"}
                className="mt-1 size-4"
              />
              <label htmlFor={`${id}-for-company`} className="text-sm font-medium text-slate-800">
                I accept this quote for a company
              </label>
            </div>
            <TextField
              label="Company"
              name="company"
              autoComplete="organization"
              maxLength={200}
              defaultValue={typed?.company ?? quote.preparedFor.company ?? ""}
              error={fieldErrors.company}
              className="max-w-md"
            />
            <TextField
              label="Full name of the person signing for the company"
              name="signer"
              maxLength={200}
              defaultValue={typed?.signer}
              error={fieldErrors.signer}
              className="max-w-md"
            />
          </div>
        </details>
        <TextField
          label="Your full name (signature)"
          name="signature"
          autoComplete="name"
          required
          maxLength={200}
          defaultValue={typed?.signature}
          error={fieldErrors.signature}
          hint={`Type your full name as it is on your account (${accountName}), or for a company the signer's name above. Typing it signs the acceptance; we keep it with the date and time.`}
          className="max-w-md"
        />
        <button type="submit" className={buttonClass("primary")} disabled={busy}>
          {busy ? "Accepting…" : quote.deposit ? "Accept and pay the deposit" : "Accept and pay"}
        </button>
      </Form>
    </section>
  );
}

function DeclineForm({
  result,
}: {
  result: Extract<ClientQuotePageResult, { intent: "decline" }> | undefined;
}) {
  const id = useId();
  const busy = useNavigation().formData?.get("intent") === "decline";
  const failed = failureOf(result);
  return (
    <section aria-labelledby={`${id}-title`} className={cardClass("p-5")}>
      <h2 id={`${id}-title`} className="text-lg font-bold">
        Decline this quote
      </h2>
      <Form method="post" className="mt-3 space-y-4">
        <input type="hidden" name="intent" value="decline" />
        <TextAreaField
          label="Reason (optional)"
          name="reason"
          rows={3}
          maxLength={1000}
          defaultValue={failed?.values.reason}
          error={failed?.error}
          className="max-w-xl"
        />
        <button type="submit" className={buttonClass("secondary")} disabled={busy}>
          {busy ? "Declining…" : "Decline quote"}
        </button>
      </Form>
    </section>
  );
}

function WhereItStands({ page }: { page: PageData }) {
  const { quote: v, order } = page;
  if (v.accepted) {
    return (
      <section aria-labelledby="quote-outcome" className={cardClass("p-5")} data-testid="quote-outcome">
        <h2 id="quote-outcome" className="text-lg font-bold">
          Accepted
        </h2>
        <p className="mt-1 text-sm text-slate-700">
          Accepted by <strong>{v.accepted.name}</strong>
          {v.accepted.company && <> for {v.accepted.company}</>} on {v.accepted.at}.
        </p>
        {order && (
          <ul className="mt-3 space-y-2 text-sm">
            <li>
              <Link to={order.href} className="font-medium text-brand-700 underline">
                View the order
              </Link>
            </li>
            {order.invoices.map((invoice) => (
              <li key={invoice.id} className="flex flex-wrap items-center gap-2">
                <Link to={invoice.href} className="font-medium text-brand-700 underline">
                  {KIND_LABELS[invoice.kind] ?? "Invoice"} invoice {invoice.number}
                </Link>
                <StatusBadge status={invoice.status} />
              </li>
            ))}
          </ul>
        )}
      </section>
    );
  }
  return (
    <section aria-labelledby="quote-outcome" className={cardClass("p-5")} data-testid="quote-outcome">
      <h2 id="quote-outcome" className="text-lg font-bold">
        {v.declined ? "Declined" : v.status === "superseded" ? "Replaced by a revised quote" : "Expired"}
      </h2>
      <p className="mt-1 text-sm text-slate-700">{v.closedNote}</p>
      {v.declined && (
        <p className="mt-1 text-sm text-slate-700">
          Declined on {v.declined.at}.{v.declined.reason && <> Reason: {v.declined.reason}</>}
        </p>
      )}
      {!v.declined && (
        <p className="mt-3 text-sm">
          <Link to="/client/quotes/new" className="font-medium text-brand-700 underline">
            Ask for a new quote
          </Link>
        </p>
      )}
    </section>
  );
}

export function ClientQuotePage({
  page,
  result,
}: {
  page: PageData;
  result: ClientQuotePageResult | undefined;
}) {
  const v = page.quote;
  return (
    <div className="mx-auto max-w-4xl space-y-6 px-4 py-10">
      <div className="flex flex-wrap items-center justify-between gap-3 print:hidden" data-print-hide>
        <Link to="/client/quotes" className="text-sm font-medium text-brand-700 hover:underline">
          ← All quotes
        </Link>
        <PdfDownloadLink href={`/client/quotes/${v.id}/pdf`} />
      </div>
      {result?.intent === "decline" && result.ok && <Alert tone="success">{result.message}</Alert>}
      {result?.intent === null && <FormError message={formErrors(result).error} />}
      <QuoteDocument quote={v} />
      <div className="space-y-6 print:hidden">
        {v.open ? (
          <>
            <AcceptForm
              quote={v}
              accountName={page.accountName}
              result={result?.intent === "accept" ? result : undefined}
            />
            <DeclineForm result={result?.intent === "decline" ? result : undefined} />
          </>
        ) : (
          <WhereItStands page={page} />
        )}
      </div>
    </div>
  );
}

/** Another client's quote, a draft, a malformed or unknown id: one answer (404). */
export function QuoteNotFound() {
  return (
    <div className="mx-auto max-w-xl px-4 py-20 text-center">
      <h1 className="text-3xl font-bold">Quote Not Found</h1>
      <p className="mt-4 text-slate-600">We could not find this quote in your account.</p>
      <ButtonLink to="/client/quotes" className="mt-8">
        Back to Quotes
      </ButtonLink>
    </div>
  );
}
