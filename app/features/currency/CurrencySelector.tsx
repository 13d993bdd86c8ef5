/**
 * The portal's currency selector: "Currency selector: USD, INR, AUD, EUR, GBP, CAD." (client-portal.md,
 * Services). Changing it re-renders every <Price> at once (showing '...' while new rates load).
 * `onChange` lets the portal also save the choice (saveChosenCurrencyIfClient); inside a GET form it
 * submits as `currency`, so it works before JavaScript loads.
 */
import { useId } from "react";
import { useCurrency } from "./CurrencyContext";
import { SELECTABLE_CURRENCIES } from "./currency";

export function CurrencySelector({
  label = "Currency",
  className,
  onChange,
}: {
  label?: string;
  className?: string;
  onChange?: (currency: string) => void;
}) {
  const { currency, setCurrency } = useCurrency();
  const id = useId();
  const options: readonly string[] = SELECTABLE_CURRENCIES;
  // A detected currency outside the list (e.g. JPY) is still shown as the current one.
  const shown = options.includes(currency) ? options : [...options, currency];
  return (
    <span className={["inline-flex items-center gap-2", className].filter(Boolean).join(" ")}>
      <label htmlFor={id} className="text-sm font-medium text-slate-700">
        {label}
      </label>
      <select
        id={id}
        name="currency"
        value={currency}
        onChange={(event) => {
          const next = event.currentTarget.value;
          void setCurrency(next);
          onChange?.(next);
        }}
        className="rounded-md border border-slate-300 bg-white px-2 py-1 text-sm"
      >
        {shown.map((code) => (
          <option key={code} value={code}>
            {code}
          </option>
        ))}
      </select>
    </span>
  );
}
