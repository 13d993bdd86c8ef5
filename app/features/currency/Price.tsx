/**
 * The one price component of the site: a USD amount shown in the page's currency (converted from USD),
 * '...' while a client-side currency change is loading, USD when conversion fails, and, with
 * `showUsd`, the USD amount beneath ("Converted prices are shown with the USD price beneath").
 */

import { formatMoney } from "~/features/money/format";
import { useCurrency } from "./CurrencyContext";
import { displayPrice } from "./currency";

export function formatUsd(amount: number): string {
  return formatMoney(amount, "USD");
}

export function Price({
  usd,
  className,
  showUsd = false,
}: {
  usd: number;
  className?: string;
  showUsd?: boolean;
}) {
  const { currency, rates, loading } = useCurrency();
  const shown = displayPrice(usd, currency, rates);
  // Server and browser may format with slightly different ICU data (spaces, symbols): the text of a
  // price is allowed to differ at hydration.
  const amount = (
    <span data-price-usd={usd} data-currency={loading ? undefined : shown.currency} suppressHydrationWarning>
      {loading ? "..." : shown.text}
    </span>
  );
  if (!showUsd) return <span className={className}>{amount}</span>;
  return (
    <span className={["flex flex-col", className].filter(Boolean).join(" ")}>
      {amount}
      {(loading || shown.converted) && (
        <span className="text-sm font-normal text-slate-500" data-price-usd-beneath suppressHydrationWarning>
          {formatUsd(usd)} USD
        </span>
      )}
    </span>
  );
}
