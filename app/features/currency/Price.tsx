/**
 * The one price component of the site. Today it shows USD; the currency feature upgrades it to the
 * visitor's currency with the USD amount beneath, without changing its callers.
 */
export function formatUsd(amount: number): string {
  return new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(amount);
}

export function Price({ usd, className }: { usd: number; className?: string }) {
  return (
    <span className={className} data-price-usd={usd}>
      {formatUsd(usd)}
    </span>
  );
}
