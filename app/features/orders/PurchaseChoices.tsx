/**
 * The purchase form's choices: package, add-ons, quantity and currency. The inputs are uncontrolled
 * (they work before hydration); PurchasePage reads them into its state.
 */

import { type Dispatch, type RefObject, type SetStateAction, useId } from "react";
import {
  nextQuantity,
  type QuantityRules,
  quantityButtons,
  stepQuantity,
} from "~/features/catalogue/catalogue";
import type { Rates } from "~/features/currency/currency";
import { formatMoney } from "~/features/money/format";
import { buttonClass } from "~/ui/button";
import { cardClass } from "~/ui/card-class";
import { Icon } from "~/ui/icon";
import { priceOrder } from "./pricing";
import type { PurchaseAddon, PurchasePackage } from "./purchase-page";

/** One unit's price in the chosen currency, without tax, as the cards show it. */
function unitPrice(priceUsd: number, currency: string, rates: Rates): string {
  return formatMoney(
    priceOrder({
      unitPriceUsd: priceUsd,
      quantity: 1,
      currency,
      rate: rates[currency] ?? 1,
      taxRatePercent: 0,
    }).total,
    currency,
  );
}

export function PackageChoice({
  packages,
  selectedPackage,
  currency,
  rates,
  perUnit,
}: {
  packages: readonly PurchasePackage[];
  selectedPackage: string;
  currency: string;
  rates: Rates;
  /** Whether the service is bought by quantity: prices then read "each". */
  perUnit: boolean;
}) {
  const id = useId();
  // A label holds phrasing content only (HTML), so the features' list sits beside it in the card; the
  // label's ::after covers the whole card, so a click anywhere on it still picks the package, and the
  // radio is described by the list.
  return (
    <fieldset>
      <legend className="text-lg font-semibold">Choose a Package</legend>
      <div className="mt-3 grid gap-3 sm:grid-cols-2">
        {packages.map((p) => (
          <div
            key={p.key}
            className={cardClass(
              "relative flex cursor-pointer flex-col p-4 has-[:checked]:border-brand-600 has-[:checked]:ring-2 has-[:checked]:ring-brand-200",
            )}
          >
            <label className="flex cursor-pointer flex-col after:absolute after:inset-0">
              <span className="flex items-center gap-2 font-semibold">
                <input
                  type="radio"
                  name="package"
                  value={p.key}
                  defaultChecked={p.key === selectedPackage}
                  // Above the label's ::after, so a click on the radio itself lands on it.
                  className="relative z-1"
                  aria-describedby={p.features.length > 0 ? `${id}-${p.key}-features` : undefined}
                />
                {p.name}
              </span>
              <span className="mt-1 text-sm text-slate-600" suppressHydrationWarning>
                {unitPrice(p.priceUsd, currency, rates)}
                {perUnit ? " each" : ""}
              </span>
            </label>
            {p.features.length > 0 && (
              <ul id={`${id}-${p.key}-features`} className="mt-2 list-disc pl-5 text-sm text-slate-600">
                {p.features.map((f) => (
                  <li key={f}>{f}</li>
                ))}
              </ul>
            )}
          </div>
        ))}
      </div>
    </fieldset>
  );
}

export function AddonChoice({
  addons,
  currency,
  rates,
}: {
  addons: readonly PurchaseAddon[];
  currency: string;
  rates: Rates;
}) {
  if (addons.length === 0) return null;
  return (
    <fieldset>
      <legend className="text-lg font-semibold">Add-ons</legend>
      <div className="mt-3 space-y-3">
        {addons.map((a) => (
          <label
            key={a.key}
            className={cardClass(
              "flex cursor-pointer items-center gap-3 p-4 has-[:checked]:border-brand-600",
            )}
          >
            <input type="checkbox" name="addon" value={a.key} />
            <span className="font-semibold">{a.name}</span>
            <span className="ml-auto text-sm text-slate-600" suppressHydrationWarning>
              +{unitPrice(a.priceUsd, currency, rates)} {"each"}
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

export function QuantityField({
  label,
  rules,
  quantity,
  setQuantity,
  inputRef,
}: {
  label: string;
  rules: QuantityRules;
  quantity: number;
  setQuantity: Dispatch<SetStateAction<number>>;
  inputRef: RefObject<HTMLInputElement | null>;
}) {
  const buttons = quantityButtons(quantity, rules);
  const setQuantityInput = (n: number) => {
    setQuantity(n);
    if (inputRef.current) inputRef.current.value = String(n);
  };
  return (
    <div>
      <label htmlFor="quantity" className="block text-sm font-semibold">
        {label}
      </label>
      <div className="mt-2 flex items-center gap-2">
        <button
          type="button"
          aria-label={`Decrease ${label.toLowerCase()}`}
          className={buttonClass("secondary", "px-3")}
          disabled={!buttons.decrease}
          onClick={() => setQuantityInput(stepQuantity(quantity, -1, rules))}
        >
          <Icon name="minus" className="size-4" />
        </button>
        <input
          ref={inputRef}
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
          aria-label={`Increase ${label.toLowerCase()}`}
          className={buttonClass("secondary", "px-3")}
          disabled={!buttons.increase}
          onClick={() => setQuantityInput(stepQuantity(quantity, 1, rules))}
        >
          <Icon name="plus" className="size-4" />
        </button>
      </div>
      <p id="quantity-hint" className="mt-1 text-sm text-slate-500">
        Whole numbers from {rules.min} to {rules.max}.
      </p>
    </div>
  );
}

export function CurrencyField({ currency, codes }: { currency: string; codes: readonly string[] }) {
  return (
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
        {codes.map((code) => (
          <option key={code} value={code}>
            {code}
          </option>
        ))}
      </select>
    </div>
  );
}
