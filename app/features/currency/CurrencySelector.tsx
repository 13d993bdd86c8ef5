/**
 * The portal's currency selector: "Currency selector: USD, INR, AUD, EUR, GBP, CAD." (client-portal.md,
 * Services). Changing it re-renders every <Price> at once (showing '...' while new rates load).
 * `onChange` lets the portal also save the choice (saveChosenCurrencyIfClient); inside a GET form it
 * submits as `currency`, so it works before JavaScript loads. It is uncontrolled (ARCHITECTURE.md,
 * "Input is never held only in React state"): a choice made before hydration stays in the page and is
 * applied once the scripts arrive.
 */
import { useEffect, useId, useRef } from "react";
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
  const select = useRef<HTMLSelectElement>(null);
  const choose = (next: string) => {
    void setCurrency(next);
    onChange?.(next);
  };
  // On hydration (and after each change of currency) the page may show a choice React did not make:
  // one picked before the scripts arrived. Apply it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once per shown currency, on purpose.
  useEffect(() => {
    const picked = select.current?.value;
    if (picked && picked !== currency) choose(picked);
  }, [currency]);
  const options: readonly string[] = SELECTABLE_CURRENCIES;
  // A detected currency outside the list (e.g. JPY) is still shown as the current one.
  const shown = options.includes(currency) ? options : [...options, currency];
  return (
    <span className={["inline-flex items-center gap-2", className].filter(Boolean).join(" ")}>
      <label htmlFor={id} className="text-sm font-medium text-slate-700">
        {label}
      </label>
      <select
        // A new currency from elsewhere (another tab, the server) re-renders it with that default.
        key={currency}
        ref={select}
        id={id}
        name="currency"
        defaultValue={currency}
        onChange={(event) => choose(event.currentTarget.value)}
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
