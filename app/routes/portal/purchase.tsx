import { data, redirect } from "react-router";
import { getCurrentUser, requireClient } from "~/features/accounts/session.server";
import { AlertFixNote } from "~/features/domain-checks/AlertFixNote";
import {
  ALERT_NOT_FOUND,
  alertForPurchase,
  clientAlert,
} from "~/features/domain-checks/client-domains.server";
import { fixServiceSlug } from "~/features/domain-checks/fixes";
import { checkout, checkoutForm } from "~/features/orders/orders.server";
import { PurchaseNotFound, PurchasePage } from "~/features/orders/PurchasePage";
import { loadPurchasePage } from "~/features/orders/purchase-page.server";
import { afterSaleDeps, orderDeps } from "~/features/payments/deps.server";
import { PaymentRouteError } from "~/features/payments/PaymentErrorScreen";
import { CoveredIncidentOffer } from "~/features/plans/CoveredIncidentOffer";
import {
  coveredIncidentChoice,
  coveredIncidentForm,
  orderCoveredIncident,
} from "~/features/plans/covered-incidents.server";
import { pageTitle } from "~/features/site/meta";
import { useRootData } from "~/features/site/root-data";
import { actionResponse, formErrors, parseForm } from "~/ui/form";
import type { Route } from "./+types/purchase";

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: pageTitle("Purchase Service", matches) },
  { name: "robots", content: "noindex" },
];

export async function loader({ request, context, params }: Route.LoaderArgs) {
  // The session is looked up once, and only for a service that exists.
  const signedIn = { user: null as Awaited<ReturnType<typeof getCurrentUser>> };
  const url = new URL(request.url);
  const page = await loadPurchasePage(orderDeps(context), {
    routeId: params.serviceId,
    url,
    signedIn: async () => {
      signedIn.user = await getCurrentUser(request, context);
      return signedIn.user?.id ?? null;
    },
  });
  if (!page.found) return data({ ...page, covered: null, fromAlert: null }, { status: 404 });
  // Per-incident support, for a client whose care plan has incidents left: ordered without paying.
  const covered = signedIn.user
    ? await coveredIncidentChoice(context.runtime.database.db, signedIn.user.id, page.service.slug)
    : null;
  // A domain alert's fix (issue 39): the purchase names it, and the order is made from it.
  const fromAlert = signedIn.user
    ? await alertForPurchase(
        context.runtime.database.db,
        signedIn.user.id,
        url.searchParams.get("alert"),
        page.service.slug,
      )
    : null;
  return { ...page, covered, fromAlert };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const { client } = await requireClient(request, context);
  const formData = await request.formData();
  if (formData.get("intent") === "covered") {
    // Only which plan period to count against is read; the server checks that it covers the order.
    const parsed = parseForm(coveredIncidentForm, Object.fromEntries(formData));
    if (!parsed.ok) return actionResponse(parsed);
    const covered = await orderCoveredIncident(afterSaleDeps(context), {
      client,
      serviceRouteId: params.serviceId,
      periodId: parsed.data.periodId,
      checkoutToken: parsed.data.checkoutToken,
    });
    if (covered.ok) throw redirect(covered.redirectTo);
    return actionResponse(covered);
  }
  const form = { ...Object.fromEntries(formData), addons: formData.getAll("addon") };
  const parsed = parseForm(checkoutForm, form);
  if (!parsed.ok) return actionResponse(parsed);
  const alert = parsed.data.fromAlert
    ? await clientAlert(context.runtime.database.db, client.id, parsed.data.fromAlert)
    : null;
  if (parsed.data.fromAlert && !alert)
    return actionResponse({ ok: false, status: 404, error: ALERT_NOT_FOUND });
  // Only what to buy is read from the form; prices, totals and amounts never are.
  const outcome = await checkout(orderDeps(context), {
    client,
    serviceRouteId: params.serviceId,
    packageKey: parsed.data.package,
    quantity: parsed.data.quantity,
    addons: parsed.data.addons,
    currency: parsed.data.currency,
    checkoutToken: parsed.data.checkoutToken,
    fromDomainAlert: alert && { id: alert.id, serviceSlug: fixServiceSlug(alert.fix) },
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
      offer={
        loaderData.fromAlert ? (
          <AlertFixNote alert={loaderData.fromAlert} />
        ) : (
          loaderData.covered && <CoveredIncidentOffer choice={loaderData.covered} />
        )
      }
      fields={
        loaderData.fromAlert && <input type="hidden" name="fromAlert" value={loaderData.fromAlert.id} />
      }
    />
  );
}
