import { data, redirect } from "react-router";
import { z } from "zod";
import { getCurrentUser, requireClient } from "~/features/accounts/session.server";
import { quantityRules } from "~/features/catalogue/catalogue";
import { SELECTABLE_CURRENCIES, toCurrencyCode } from "~/features/currency/currency";
import {
  checkout,
  choosePackage,
  findPurchasableService,
  newCheckoutToken,
} from "~/features/orders/orders.server";
import { PurchaseNotFound, PurchasePage } from "~/features/orders/PurchasePage";
import { orderDeps } from "~/features/payments/deps.server";
import { PaymentRouteError } from "~/features/payments/PaymentErrorScreen";
import { pageTitle } from "~/features/site/meta";
import { useRootData } from "~/features/site/root-data";
import { parseForm } from "~/ui/form";
import type { Route } from "./+types/purchase";

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: pageTitle("Purchase Service", matches) },
  { name: "robots", content: "noindex" },
];

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { db } = context.runtime.database;
  const url = new URL(request.url);
  const routeId = params.serviceId;
  const service = await findPurchasableService(db, routeId);
  if (!service) return data({ found: false as const, routeId }, { status: 404 });
  const user = await getCurrentUser(request, context);
  const snapshot = await context.runtime.currency.rates.get();
  const queryCurrency = toCurrencyCode(url.searchParams.get("currency"));
  const wanted = new Set<string>([...SELECTABLE_CURRENCIES, ...(queryCurrency ? [queryCurrency] : [])]);
  const rates: Record<string, number> = { USD: 1 };
  for (const code of wanted) if (snapshot.rates[code]) rates[code] = snapshot.rates[code];
  const here = `${url.pathname}${url.search}`;
  return {
    found: true as const,
    service: {
      id: service.id,
      name: service.name,
      description: service.description,
      packages: service.packageOrder
        .filter((key) => Object.hasOwn(service.pricing, key))
        .map((key) => ({
          key,
          name: service.packageNames[key] ?? key,
          priceUsd: service.pricing[key]!,
          features: service.features[key] ?? [],
        })),
      quantity: quantityRules(service),
      addons: Object.entries(service.addons ?? {}).map(([key, addon]) => ({
        key,
        name: addon.name,
        priceUsd: addon.usd,
      })),
    },
    selectedPackage: choosePackage(service, url.searchParams.get("package")),
    queryCurrency: queryCurrency && rates[queryCurrency] ? queryCurrency : null,
    rates,
    taxRatePercent: context.runtime.config.invoices.taxRatePercent,
    signedIn: Boolean(user),
    // The purchase form's one-time token: a resubmitted form finds the order it already made.
    checkoutToken: user ? newCheckoutToken() : null,
    loginHref: `/client/login?redirectTo=${encodeURIComponent(here)}`,
    registerHref: `/client/register?redirectTo=${encodeURIComponent(here)}`,
  };
}

const CheckoutForm = z.object({
  checkoutToken: z
    .string()
    .regex(/^[A-Za-z0-9_-]{16,64}$/, { message: "The order form expired. Please reload." }),
  package: z.string().max(64).optional(),
  quantity: z.string().max(32).optional(),
  currency: z.string().max(8).optional(),
  /** The add-ons ticked (`addon=procurement`): their prices come from the catalogue, never the form. */
  addons: z.array(z.string().max(64)).max(8),
});

export async function action({ request, context, params }: Route.ActionArgs) {
  const { client } = await requireClient(request, context);
  const formData = await request.formData();
  const form = { ...Object.fromEntries(formData), addons: formData.getAll("addon") };
  const parsed = parseForm(CheckoutForm, form);
  if (!parsed.ok) return data(parsed, 400);
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
  return data({ error: outcome.error }, { status: outcome.status });
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const root = useRootData();
  return <PaymentRouteError error={error} supportEmail={root?.business.email ?? "support@portico.example"} />;
}

export default function Purchase({ loaderData, actionData }: Route.ComponentProps) {
  if (!loaderData.found) return <PurchaseNotFound routeId={loaderData.routeId} />;
  return <PurchasePage data={loaderData} error={actionData?.error ?? null} />;
}
