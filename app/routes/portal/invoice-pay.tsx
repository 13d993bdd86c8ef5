import { Link, redirect } from "react-router";
import { requireClient } from "~/features/accounts/session.server";
import { payInvoice } from "~/features/orders/orders.server";
import { orderDeps } from "~/features/payments/deps.server";
import { buttonClass } from "~/ui/button";
import { actionResponse, formErrors } from "~/ui/form";
import type { Route } from "./+types/invoice-pay";

/**
 * Pay Now for an unpaid invoice (POST): a new checkout at the payment provider for the same order and
 * invoice, then the browser goes there. A failure answers with 'Failed to create payment: {message}'
 * (as data for a fetcher, or as this small page for a plain form post).
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  const { client } = await requireClient(request, context);
  const outcome = await payInvoice(orderDeps(context), { client, invoiceId: params.invoiceId });
  if (outcome.ok) throw redirect(outcome.redirectTo);
  return actionResponse({ ok: false, status: outcome.status, error: outcome.error });
}

// A GET (or the render after a failed POST) shows the result page below; it must not redirect, or a
// failed Pay Now would lose its message.
export function loader() {
  return null;
}

export default function PayNowResult({ actionData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-xl px-4 py-20 text-center">
      <h1 className="text-2xl font-bold">Payment not started</h1>
      <p role="alert" className="mt-4 text-red-700">
        {formErrors(actionData).error ?? "Nothing to pay."}
      </p>
      <Link to="/client/invoices" className={buttonClass("primary", "mt-8")}>
        Back to Invoices
      </Link>
    </div>
  );
}
