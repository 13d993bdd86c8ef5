import { data } from "react-router";
import { requireClient } from "~/features/accounts/session.server";
import { afterSaleDeps } from "~/features/payments/deps.server";
import { ClientOrderPage, OrderNotFound } from "~/features/portal/ClientOrderPage";
import { clientOrderAction, loadClientOrder } from "~/features/portal/client-order.server";
import { pageTitle } from "~/features/site/meta";
import { useRootData } from "~/features/site/root-data";
import { actionResponse } from "~/ui/form";
import type { Route } from "./+types/order";

export const meta: Route.MetaFunction = ({ data: d, matches }) => [
  { title: pageTitle(d?.view ? `Order: ${d.view.order.serviceName}` : "Order Not Found", matches) },
  { name: "robots", content: "noindex" },
];

/** Only the signed-in client's own order; another's, or a malformed id, is 'Order Not Found' (404). */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { user } = await requireClient(request, context);
  const view = await loadClientOrder(afterSaleDeps(context), user.id, params.orderId);
  if (!view) return data({ view: null }, { status: 404 });
  return { view };
}

/** The brief (intent=brief) and a message with its files (intent=message, multipart). */
export async function action({ request, context, params }: Route.ActionArgs) {
  const { user } = await requireClient(request, context);
  const answer = await clientOrderAction(afterSaleDeps(context), user.id, params.orderId, request);
  return actionResponse(answer.result, answer.headers);
}

/** A refused post's headers (Retry-After of a 429) reach the page's answer too. */
export const headers: Route.HeadersFunction = ({ actionHeaders }) => actionHeaders;

export default function ClientOrder({ loaderData, actionData }: Route.ComponentProps) {
  const { business } = useRootData();
  if (!loaderData.view) return <OrderNotFound />;
  // One page state per order (its kept notices do not follow the client to another order).
  return (
    <ClientOrderPage
      key={loaderData.view.order.id}
      view={loaderData.view}
      result={actionData}
      ownerName={business.name}
    />
  );
}
