import { data, redirect } from "react-router";
import { requireClient } from "~/features/accounts/session.server";
import { payInvoice } from "~/features/orders/orders.server";
import { orderDeps } from "~/features/payments/deps.server";
import type { Route } from "./+types/invoice-pay";

/**
 * Pay Now for an unpaid invoice (POST): a new checkout at the payment provider for the same order and
 * invoice, then the browser goes there. A failure answers with 'Failed to create payment: {message}'.
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  const { client } = await requireClient(request, context);
  const outcome = await payInvoice(orderDeps(context), { client, invoiceId: params.invoiceId });
  if (outcome.ok) throw redirect(outcome.redirectTo);
  return data({ error: outcome.error }, { status: outcome.status });
}

export function loader() {
  throw redirect("/client/invoices");
}
