import { Download, Printer } from "lucide-react";
import { data, Form, Link } from "react-router";
import { requireClient } from "~/features/accounts/session.server";
import { invoiceView } from "~/features/invoices/invoice-view";
import { getClientInvoice } from "~/features/invoices/invoices.server";
import { pageTitle } from "~/features/site/meta";
import { Badge } from "~/ui/badge";
import { ButtonLink, buttonClass } from "~/ui/button";
import { cardClass } from "~/ui/card-class";
import type { Route } from "./+types/invoice";

export const meta: Route.MetaFunction = ({ data: d, matches }) => [
  { title: pageTitle(d?.invoice ? `Invoice ${d.invoice.number}` : "Invoice Not Found", matches) },
  { name: "robots", content: "noindex" },
];

/** Only the signed-in client's own invoice; anything else is 'Invoice Not Found' (404), no hint either way. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { client } = await requireClient(request, context);
  const found = await getClientInvoice(context.runtime.database.db, client.id, params.invoiceId);
  if (!found) return data({ invoice: null }, { status: 404 });
  const view = invoiceView(found, context.runtime.config.business);
  return { invoice: view };
}

export default function InvoicePage({ loaderData }: Route.ComponentProps) {
  const v = loaderData.invoice;
  if (!v) {
    return (
      <div className="mx-auto max-w-xl px-4 py-20 text-center">
        <h1 className="text-3xl font-bold">Invoice Not Found</h1>
        <p className="mt-4 text-slate-600">We could not find this invoice in your account.</p>
        <ButtonLink to="/client/dashboard" className="mt-8">
          Back to Dashboard
        </ButtonLink>
      </div>
    );
  }
  return (
    <div className="mx-auto max-w-4xl px-4 py-10">
      <div className="flex flex-wrap items-center justify-between gap-3 print:hidden" data-print-hide>
        <Link to="/client/dashboard" className="text-sm font-medium text-brand-700 hover:underline">
          ← Back to Dashboard
        </Link>
        <div className="flex flex-wrap gap-2">
          {v.tone !== "paid" && v.status !== "void" && (
            <Form method="post" action={`/client/invoices/${v.id}/pay`}>
              <button type="submit" className={buttonClass("primary")}>
                Pay Now
              </button>
            </Form>
          )}
          <button type="button" className={buttonClass("secondary")} onClick={() => window.print()}>
            <Printer aria-hidden="true" className="size-4" /> Print
          </button>
          <a href={`/invoice/${v.id}/pdf`} className={buttonClass("primary")} download>
            <Download aria-hidden="true" className="size-4" /> Download PDF
          </a>
        </div>
      </div>
      <article
        id="invoice"
        aria-labelledby="invoice-title"
        className={cardClass("mt-6 p-5 sm:p-8 print:border-0 print:shadow-none")}
      >
        <header className="flex flex-wrap justify-between gap-6">
          <div>
            <p className="text-xl font-bold">{v.business.name}</p>
            {v.business.legalName !== v.business.name && (
              <p className="text-sm text-slate-600">{v.business.legalName}</p>
            )}
            <p className="text-sm text-slate-600">{v.business.address}</p>
            <p className="text-sm text-slate-600">
              {v.business.email} · {v.business.phone}
            </p>
          </div>
          <div className="text-right">
            <h1 id="invoice-title" className="text-2xl font-bold">
              Invoice {v.number}
            </h1>
            <Badge
              data-testid="invoice-status"
              tone={v.tone === "paid" ? "success" : "danger"}
              className="mt-2 px-3 py-1 text-sm"
            >
              {v.statusLabel}
            </Badge>
          </div>
        </header>
        <div className="mt-8 grid grid-cols-1 gap-6 sm:grid-cols-2">
          <div>
            <h2 className="text-sm font-semibold uppercase text-slate-500">Bill To</h2>
            <p className="mt-1 font-semibold">{v.billTo.name}</p>
            {v.billTo.company && <p>{v.billTo.company}</p>}
            <p className="wrap-anywhere">{v.billTo.email}</p>
            {v.billTo.phone && <p>{v.billTo.phone}</p>}
          </div>
          <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm sm:justify-self-end">
            <dt className="font-semibold">Invoice Date</dt>
            <dd>{v.issued}</dd>
            <dt className="font-semibold">Due Date</dt>
            <dd>{v.due}</dd>
            {v.paid && (
              <>
                <dt className="font-semibold">Paid On</dt>
                <dd>{v.paid}</dd>
              </>
            )}
            <dt className="font-semibold">Currency</dt>
            <dd>{v.currency}</dd>
          </dl>
        </div>
        <table className="mt-8 w-full text-sm">
          <thead>
            <tr className="border-b border-slate-200 text-left">
              <th scope="col" className="py-2">
                Description
              </th>
              <th scope="col" className="py-2 text-right">
                Qty
              </th>
              <th scope="col" className="py-2 text-right">
                Unit Price
              </th>
              <th scope="col" className="py-2 text-right">
                Amount
              </th>
            </tr>
          </thead>
          <tbody>
            {v.lines.map((line) => (
              <tr key={line.description} className="border-b border-slate-100">
                <td className="py-3">
                  <span className="font-medium">{line.description}</span>
                  <span className="block text-slate-500">{line.detail}</span>
                </td>
                <td className="py-3 text-right">{line.quantity}</td>
                <td className="py-3 text-right">{line.unitPrice}</td>
                <td className="py-3 text-right">{line.amount}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <dl className="ml-auto mt-6 grid max-w-xs grid-cols-2 gap-y-1 text-sm">
          <dt>Subtotal</dt>
          <dd className="text-right">{v.subtotal}</dd>
          <dt>{v.taxLabel}</dt>
          <dd className="text-right">{v.tax}</dd>
          <dt className="border-t border-slate-200 pt-2 text-base font-bold">Total</dt>
          <dd
            data-testid="invoice-total"
            className="border-t border-slate-200 pt-2 text-right text-base font-bold"
          >
            {v.total}
          </dd>
        </dl>
        {v.usdNote && <p className="mt-2 text-right text-xs text-slate-500">Total in USD: {v.usdNote}</p>}
      </article>
    </div>
  );
}
