import { ArrowLeft, Loader2, Minus, Plus } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { z } from "zod";
import { getCurrentUser, requireClient } from "~/features/accounts/session.server";
import { nextQuantity, quantityButtons, quantityRules, stepQuantity } from "~/features/catalogue/catalogue";
import { formatMoney, SELECTABLE_CURRENCIES, toCurrencyCode } from "~/features/currency/currency";
import { SERVICE_NOT_FOUND } from "~/features/orders/messages";
import {
  checkout,
  choosePackage,
  findPurchasableService,
  newCheckoutToken,
} from "~/features/orders/orders.server";
import { priceOrder } from "~/features/orders/pricing";
import { orderDeps } from "~/features/payments/deps.server";
import { PaymentRouteError } from "~/features/payments/PaymentErrorScreen";
import { pageTitle } from "~/features/site/meta";
import { useRootData } from "~/features/site/root-data";
import { buttonClass } from "~/ui/button";
import { cardClass } from "~/ui/card-class";
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

export default function PurchasePage({ loaderData, actionData }: Route.ComponentProps) {
  if (!loaderData.found) {
    return (
      <div className="mx-auto max-w-xl px-4 py-20 text-center">
        <h1 className="text-3xl font-bold">Service Not Found</h1>
        <p className="mt-4 text-slate-600">{SERVICE_NOT_FOUND(loaderData.routeId)}</p>
        <Link to="/client/services" className={buttonClass("primary", "mt-8")}>
          Back to Services
        </Link>
      </div>
    );
  }
  return <Purchase data={loaderData} error={actionData?.error ?? null} />;
}

type Loaded = Extract<Route.ComponentProps["loaderData"], { found: true }>;

function Purchase({ data: d, error }: { data: Loaded; error: string | null }) {
  const root = useRootData();
  const navigation = useNavigation();
  const processing = navigation.state !== "idle" && navigation.formMethod?.toUpperCase() === "POST";
  const rules = d.service.quantity;
  const initialCurrency = d.queryCurrency ?? root?.currency.currency ?? "USD";
  const [pkg, setPkg] = useState(d.selectedPackage);
  const [quantity, setQuantity] = useState(rules.min);
  const [currency, setCurrency] = useState(d.rates[initialCurrency] ? initialCurrency : "USD");
  const [addonKeys, setAddonKeys] = useState<string[]>([]);
  const formRef = useRef<HTMLFormElement>(null);
  const quantityRef = useRef<HTMLInputElement>(null);

  // Whatever was chosen before hydration (inputs are uncontrolled) becomes the summary's state.
  useEffect(() => {
    const form = formRef.current;
    if (!form) return;
    const fd = new FormData(form);
    setAddonKeys(fd.getAll("addon").map(String));
    const p = String(fd.get("package") ?? "");
    if (p) setPkg(p);
    const c = String(fd.get("currency") ?? "");
    if (c) setCurrency(c);
    // Read the field now: an updater runs later, when the ref may point elsewhere.
    const typed = quantityRef.current?.value;
    if (typed !== undefined) setQuantity((q) => nextQuantity(typed, q, rules));
  }, [rules]);

  const setQuantityInput = (n: number) => {
    setQuantity(n);
    if (quantityRef.current) quantityRef.current.value = String(n);
  };

  const chosen = d.service.packages.find((p) => p.key === pkg) ?? d.service.packages[0]!;
  const price = priceOrder({
    unitPriceUsd: chosen.priceUsd,
    quantity,
    addons: d.service.addons
      .filter((a) => addonKeys.includes(a.key))
      .map((a) => ({ key: a.key, name: a.name, unitPriceUsd: a.priceUsd })),
    currency,
    rate: d.rates[currency] ?? 1,
    taxRatePercent: d.taxRatePercent,
  });
  const buttons = quantityButtons(quantity, rules);

  return (
    <div className="mx-auto max-w-5xl px-4 py-10">
      <Link
        to="/client/services"
        className="inline-flex items-center gap-2 text-sm font-medium text-brand-700 hover:underline"
      >
        <ArrowLeft aria-hidden="true" className="size-4" /> Back to Services
      </Link>
      <h1 className="mt-4 text-3xl font-bold tracking-tight">Purchase {d.service.name}</h1>
      <p className="mt-2 max-w-2xl text-slate-600">{d.service.description}</p>

      {error && (
        <div role="alert" className="mt-6 rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-red-800">
          {error}
        </div>
      )}

      <Form
        method="post"
        ref={formRef}
        className="mt-8 grid gap-8 lg:grid-cols-[1fr_22rem]"
        onChange={(e) => {
          const target = e.target as unknown as HTMLInputElement | HTMLSelectElement;
          if (target.name === "package") setPkg(target.value);
          if (target.name === "currency") setCurrency(target.value);
          if (target.name === "addon" && formRef.current) {
            setAddonKeys(new FormData(formRef.current).getAll("addon").map(String));
          }
        }}
      >
        {d.checkoutToken && <input type="hidden" name="checkoutToken" value={d.checkoutToken} />}
        <div className="space-y-8">
          <fieldset>
            <legend className="text-lg font-semibold">Choose a Package</legend>
            <div className="mt-3 grid gap-3 sm:grid-cols-2">
              {d.service.packages.map((p) => (
                <label
                  key={p.key}
                  className={cardClass(
                    "flex cursor-pointer flex-col p-4 has-[:checked]:border-brand-600 has-[:checked]:ring-2 has-[:checked]:ring-brand-200",
                  )}
                >
                  <span className="flex items-center gap-2 font-semibold">
                    <input
                      type="radio"
                      name="package"
                      value={p.key}
                      defaultChecked={p.key === d.selectedPackage}
                    />
                    {p.name}
                  </span>
                  <span className="mt-1 text-sm text-slate-600" suppressHydrationWarning>
                    {formatMoney(
                      priceOrder({
                        unitPriceUsd: p.priceUsd,
                        quantity: 1,
                        currency,
                        rate: d.rates[currency] ?? 1,
                        taxRatePercent: 0,
                      }).total,
                      currency,
                    )}
                    {rules.label ? " each" : ""}
                  </span>
                  {p.features.length > 0 && (
                    <ul className="mt-2 list-disc pl-5 text-sm text-slate-600">
                      {p.features.map((f) => (
                        <li key={f}>{f}</li>
                      ))}
                    </ul>
                  )}
                </label>
              ))}
            </div>
          </fieldset>

          {d.service.addons.length > 0 && (
            <fieldset>
              <legend className="text-lg font-semibold">Add-ons</legend>
              <div className="mt-3 space-y-3">
                {d.service.addons.map((a) => (
                  <label
                    key={a.key}
                    className={cardClass(
                      "flex cursor-pointer items-center gap-3 p-4 has-[:checked]:border-brand-600",
                    )}
                  >
                    <input type="checkbox" name="addon" value={a.key} />
                    <span className="font-semibold">{a.name}</span>
                    <span className="ml-auto text-sm text-slate-600" suppressHydrationWarning>
                      +
                      {formatMoney(
                        priceOrder({
                          unitPriceUsd: a.priceUsd,
                          quantity: 1,
                          currency,
                          rate: d.rates[currency] ?? 1,
                          taxRatePercent: 0,
                        }).total,
                        currency,
                      )}{" "}
                      each
                    </span>
                  </label>
                ))}
              </div>
            </fieldset>
          )}

          <div className="grid gap-6 sm:grid-cols-2">
            {rules.label && (
              <div>
                <label htmlFor="quantity" className="block text-sm font-semibold">
                  {rules.label}
                </label>
                <div className="mt-2 flex items-center gap-2">
                  <button
                    type="button"
                    aria-label={`Decrease ${rules.label.toLowerCase()}`}
                    className={buttonClass("secondary", "px-3")}
                    disabled={!buttons.decrease}
                    onClick={() => setQuantityInput(stepQuantity(quantity, -1, rules))}
                  >
                    <Minus aria-hidden="true" className="size-4" />
                  </button>
                  <input
                    ref={quantityRef}
                    id="quantity"
                    name="quantity"
                    type="number"
                    inputMode="numeric"
                    min={rules.min}
                    max={rules.max}
                    step={1}
                    defaultValue={rules.min}
                    aria-describedby="quantity-hint"
                    className="w-24 rounded-lg border border-slate-300 px-3 py-2 text-center"
                    onChange={(e) => {
                      // Read the value before setting state: the updater runs later, when React has
                      // already cleared the event's currentTarget.
                      const typed = e.currentTarget.value;
                      setQuantity((q) => nextQuantity(typed, q, rules));
                    }}
                    onBlur={(e) => {
                      e.currentTarget.value = String(quantity);
                    }}
                  />
                  <button
                    type="button"
                    aria-label={`Increase ${rules.label.toLowerCase()}`}
                    className={buttonClass("secondary", "px-3")}
                    disabled={!buttons.increase}
                    onClick={() => setQuantityInput(stepQuantity(quantity, 1, rules))}
                  >
                    <Plus aria-hidden="true" className="size-4" />
                  </button>
                </div>
                <p id="quantity-hint" className="mt-1 text-sm text-slate-500">
                  Whole numbers from {rules.min} to {rules.max}.
                </p>
              </div>
            )}
            <div>
              <label htmlFor="currency" className="block text-sm font-semibold">
                Currency
              </label>
              <select
                id="currency"
                name="currency"
                defaultValue={currency}
                className="mt-2 rounded-lg border border-slate-300 bg-white px-3 py-2"
              >
                {Object.keys(d.rates).map((code) => (
                  <option key={code} value={code}>
                    {code}
                  </option>
                ))}
              </select>
            </div>
          </div>
        </div>

        <section aria-labelledby="summary-heading" className={cardClass("h-fit p-6")}>
          <h2 id="summary-heading" className="text-lg font-semibold">
            Order Summary
          </h2>
          <dl className="mt-4 space-y-2 text-sm">
            <div className="flex justify-between gap-4">
              <dt className="text-slate-600">Service</dt>
              <dd className="text-right">{d.service.name}</dd>
            </div>
            <div className="flex justify-between gap-4">
              <dt className="text-slate-600">Package</dt>
              <dd data-testid="summary-package">{chosen.name}</dd>
            </div>
            {rules.label && (
              <div className="flex justify-between gap-4">
                <dt className="text-slate-600">{rules.label}</dt>
                <dd data-testid="summary-quantity">{quantity}</dd>
              </div>
            )}
            {price.addons.map((a) => (
              <div key={a.key} className="flex justify-between gap-4">
                <dt className="text-slate-600">
                  {a.name}
                  {a.quantity > 1 ? ` × ${a.quantity}` : ""}
                </dt>
                <dd data-testid={`summary-addon-${a.key}`} suppressHydrationWarning>
                  {formatMoney(a.amountInCurrency, price.currency)}
                </dd>
              </div>
            ))}
            {d.taxRatePercent > 0 && (
              <div className="flex justify-between gap-4">
                <dt className="text-slate-600">Tax ({d.taxRatePercent}%)</dt>
                <dd suppressHydrationWarning>{formatMoney(price.taxAmount, price.currency)}</dd>
              </div>
            )}
            <div className="flex justify-between gap-4 border-t border-slate-200 pt-3 text-base font-bold">
              <dt>Total</dt>
              <dd className="text-right">
                <span data-testid="summary-total" suppressHydrationWarning>
                  {formatMoney(price.total, price.currency)}
                </span>
                {price.currency !== "USD" && (
                  <span
                    data-testid="summary-usd"
                    className="block text-sm font-normal text-slate-500"
                    suppressHydrationWarning
                  >
                    {formatMoney(price.totalUsd, "USD")} USD
                  </span>
                )}
              </dd>
            </div>
          </dl>
          {d.signedIn ? (
            <button
              type="submit"
              className={buttonClass("primary", "mt-6 w-full")}
              disabled={processing}
              aria-busy={processing}
            >
              {processing ? (
                <>
                  <Loader2 aria-hidden="true" className="size-4 animate-spin" /> Processing...
                </>
              ) : (
                "Proceed to Payment"
              )}
            </button>
          ) : (
            <>
              <button type="button" className={buttonClass("primary", "mt-6 w-full")} disabled>
                Login to Purchase
              </button>
              <p className="mt-3 text-center text-sm text-slate-600">
                <Link to={d.loginHref} className="font-semibold text-brand-700 underline">
                  Sign in
                </Link>{" "}
                or{" "}
                <Link to={d.registerHref} className="font-semibold text-brand-700 underline">
                  create an account
                </Link>{" "}
                to buy this service.
              </p>
            </>
          )}
          <p className="mt-4 text-xs text-slate-500">
            The amount is confirmed by our server when you proceed; you pay on the payment provider&apos;s
            page.
          </p>
        </section>
      </Form>
    </div>
  );
}
