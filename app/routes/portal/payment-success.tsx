import { Link, redirect } from "react-router";
import { z } from "zod";
import { getCurrentUser } from "~/features/accounts/session.server";
import { reconcileDeps } from "~/features/payments/deps.server";
import { checkOnReturn } from "~/features/payments/reconcile.server";
import { pageTitle } from "~/features/site/meta";
import { buttonClass } from "~/ui/button";
import { Icon } from "~/ui/icon";
import type { Route } from "./+types/payment-success";

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: pageTitle("Payment Successful", matches) },
  { name: "robots", content: "noindex" },
];

const Query = z.object({
  order_id: z.uuid(),
  amount: z.string().regex(/^\d{1,12}(\.\d{1,2})?$/),
});

/**
 * Where providers return the browser after paying: straight on to the thank-you page (on the server,
 * so it works without JavaScript). The page itself is shown only for a return without its query.
 * The page never trusts its query: for the signed-in client's own pending order, the server asks the
 * provider about its checkout and applies a paid answer, in case the webhook is late or lost (ADR 0503).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const parsed = Query.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (parsed.success) {
    const user = await getCurrentUser(request, context);
    if (user) await checkOnReturn(reconcileDeps(context), user.id, parsed.data.order_id);
    const q = new URLSearchParams({
      type: "payment",
      order_id: parsed.data.order_id,
      amount: parsed.data.amount,
    });
    throw redirect(`/thank-you?${q}`);
  }
  return null;
}

export default function PaymentSuccess() {
  return (
    <div className="mx-auto max-w-xl px-4 py-20 text-center">
      <Icon name="circle-check" className="mx-auto size-14 text-green-600" />
      <h1 className="mt-6 text-3xl font-bold">Payment Successful</h1>
      <p className="mt-4 text-slate-600">Thank you! Your payment is being confirmed.</p>
      <h2 className="mt-8 text-lg font-semibold">Next steps</h2>
      <ol className="mx-auto mt-3 max-w-sm list-decimal space-y-1 text-left text-slate-600">
        <li>You receive a receipt by email once the payment is confirmed.</li>
        <li>Your order shows as paid in your dashboard.</li>
        <li>We contact you within 24 hours to start the work.</li>
      </ol>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <Link to="/client/dashboard" className={buttonClass("primary")}>
          View Dashboard
        </Link>
        <Link to="/client/invoice/latest" className={buttonClass("secondary")}>
          View Invoice
        </Link>
      </div>
    </div>
  );
}
