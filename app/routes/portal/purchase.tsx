import { data, redirect } from "react-router";
import { getCurrentUser, requireClient } from "~/features/accounts/session.server";
import { checkout, checkoutForm } from "~/features/orders/orders.server";
import { PurchaseNotFound, PurchasePage } from "~/features/orders/PurchasePage";
import { loadPurchasePage } from "~/features/orders/purchase-page.server";
import { orderDeps } from "~/features/payments/deps.server";
import { PaymentRouteError } from "~/features/payments/PaymentErrorScreen";
import { pageTitle } from "~/features/site/meta";
import { useRootData } from "~/features/site/root-data";
import { actionResponse, formErrors, parseForm } from "~/ui/form";
import type { Route } from "./+types/purchase";

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: pageTitle("Purchase Service", matches) },
  { name: "robots", content: "noindex" },
];

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const page = await loadPurchasePage(orderDeps(context), {
    routeId: params.serviceId,
    url: new URL(request.url),
    signedIn: async () => Boolean(await getCurrentUser(request, context)),
  });
  return page.found ? page : data(page, { status: 404 });
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const { client } = await requireClient(request, context);
  const formData = await request.formData();
  const form = { ...Object.fromEntries(formData), addons: formData.getAll("addon") };
  const parsed = parseForm(checkoutForm, form);
  if (!parsed.ok) return actionResponse(parsed);
  // Only what to buy is read from the form; prices, totals and amounts never are.
  const outcome = await checkout(orderDeps(context), {
    client,
    serviceRouteId: params.serviceId,
    packageKey: parsed.data.package,
    quantity: parsed.data.quantity,
    addons: parsed.data.addons,
    currency: parsed.data.currency,
    checkoutToken: parsed.data.checkoutToken,
  });
  if (outcome.ok) throw redirect(outcome.redirectTo);
  return actionResponse({ ok: false, status: outcome.status, error: outcome.error });
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const root = useRootData();
  return <PaymentRouteError error={error} supportEmail={root?.business.email ?? "support@portico.example"} />;
}

export default function Purchase({ loaderData, actionData }: Route.ComponentProps) {
  const root = useRootData();
  if (!loaderData.found) return <PurchaseNotFound routeId={loaderData.routeId} />;
  return (
    <PurchasePage
      data={loaderData}
      error={formErrors(actionData).error}
      visitorCurrency={root.currency.currency}
    />
  );
}
