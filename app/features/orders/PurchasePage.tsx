/**
 * The purchase page (client-portal.md §4 "Purchase"): package, add-ons, quantity and currency, with a
 * summary that prices the choices as they change. The form posts only what to buy; the server prices it.
 */

import { type ReactNode, useEffect, useRef, useState } from "react";
import { Form, Link, useNavigation } from "react-router";
import { nextQuantity } from "~/features/catalogue/catalogue";
import { buttonClass } from "~/ui/button";
import { Icon } from "~/ui/icon";
import { SERVICE_NOT_FOUND } from "./messages";
import { OrderSummary } from "./OrderSummary";
import { AddonChoice, CurrencyField, PackageChoice, QuantityField } from "./PurchaseChoices";
import { priceOrder } from "./pricing";
import type { PurchasePageData } from "./purchase-page";

/** A purchase URL naming no active service. */
export function PurchaseNotFound({ routeId }: { routeId: string }) {
  return (
    <div className="mx-auto max-w-xl px-4 py-20 text-center">
      <h1 className="text-3xl font-bold">Service Not Found</h1>
      <p className="mt-4 text-slate-600">{SERVICE_NOT_FOUND(routeId)}</p>
      <Link to="/client/services" className={buttonClass("primary", "mt-8")}>
        Back to Services
      </Link>
    </div>
  );
}

/**
 * `visitorCurrency` is the shell's currency for this visitor (the root data's, read by the route): the
 * page starts in it unless the URL names another. `offer`: another way to order, shown above the form
 * (a care plan's covered incident, given by the route: plans sit above orders). `fields`: hidden
 * fields the route adds to the form (a domain alert's id, issue 39).
 */
export function PurchasePage({
  data: d,
  error,
  visitorCurrency,
  offer,
  fields,
}: {
  data: PurchasePageData;
  error: string | null;
  visitorCurrency: string;
  offer?: ReactNode;
  fields?: ReactNode;
}) {
  const navigation = useNavigation();
  const processing = navigation.state !== "idle" && navigation.formMethod?.toUpperCase() === "POST";
  const rules = d.service.quantity;
  const initialCurrency = d.queryCurrency ?? visitorCurrency;
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

  const chosen = d.service.packages.find((p) => p.key === pkg) ?? d.service.packages[0]!;
  const price = priceOrder({
    unitPriceUsd: chosen.priceUsd,
    quantity,
    addons: d.service.addons
      .filter((a) => addonKeys.includes(a.key))
      .map((a) => ({ key: a.key, name: a.name, unitPriceUsd: a.priceUsd })),
    currency,
    rate: d.rates[currency] ?? 1,
    taxRatePercent: d.tax.ratePercent,
    tax: d.tax,
  });

  return (
    <div className="mx-auto max-w-5xl px-4 py-10">
      <Link
        to="/client/services"
        className="inline-flex items-center gap-2 text-sm font-medium text-brand-700 hover:underline"
      >
        <Icon name="arrow-left" className="size-4" /> Back to Services
      </Link>
      <h1 className="mt-4 text-3xl font-bold tracking-tight">Purchase {d.service.name}</h1>
      <p className="mt-2 max-w-2xl text-slate-600">{d.service.description}</p>

      {error && (
        <div role="alert" className="mt-6 rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-red-800">
          {error}
        </div>
      )}
      {offer}

      <Form
        method="post"
        ref={formRef}
        className="mt-8 grid gap-8 lg:grid-cols-[1fr_22rem]"
        onChange={(e) => {
          const target = e.target;
          if (!(target instanceof HTMLInputElement || target instanceof HTMLSelectElement)) return;
          if (target.name === "package") setPkg(target.value);
          if (target.name === "currency") setCurrency(target.value);
          if (target.name === "addon" && formRef.current) {
            setAddonKeys(new FormData(formRef.current).getAll("addon").map(String));
          }
        }}
      >
        {d.checkoutToken && <input type="hidden" name="checkoutToken" value={d.checkoutToken} />}
        {fields}
        <div className="space-y-8">
          <PackageChoice
            packages={d.service.packages}
            selectedPackage={d.selectedPackage}
            currency={currency}
            rates={d.rates}
            perUnit={Boolean(rules.label)}
          />
          <AddonChoice addons={d.service.addons} currency={currency} rates={d.rates} />
          <div className="grid gap-6 sm:grid-cols-2">
            {rules.label && (
              <QuantityField
                label={rules.label}
                rules={rules}
                quantity={quantity}
                setQuantity={setQuantity}
                inputRef={quantityRef}
              />
            )}
            <CurrencyField currency={currency} codes={Object.keys(d.rates)} />
          </div>
        </div>

        <OrderSummary
          serviceName={d.service.name}
          packageName={chosen.name}
          quantityLabel={rules.label}
          quantity={quantity}
          price={price}
          tax={d.tax}
          countryNeeded={d.countryNeeded}
          signedIn={d.signedIn}
          processing={processing}
          loginHref={d.loginHref}
          registerHref={d.registerHref}
        />
      </Form>
    </div>
  );
}
