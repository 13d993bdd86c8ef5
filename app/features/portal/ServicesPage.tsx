/**
 * The portal's Purchase Services page (client-portal.md, Services): each service's card with its
 * packages, prices in the visitor's currency and a Purchase link per package, and the currency choice,
 * saved as the client's preference by the page's action.
 */

import { Form, Link, useFetcher, useRevalidator } from "react-router";
import { useCurrency } from "~/features/currency/CurrencyContext";
import { CurrencySelector } from "~/features/currency/CurrencySelector";
import { DetectedCountryNote } from "~/features/currency/DetectedCountryNote";
import { Price } from "~/features/currency/Price";
import { Badge } from "~/ui/badge";
import { cardClass } from "~/ui/card-class";
import { Icon } from "~/ui/icon";
import { Page } from "~/ui/page";
import { useHydrated } from "~/ui/use-hydrated";
import type { ServiceCard } from "./services-page";

/**
 * "Each card lists the first 3 features plus '+N more features'", which opens to list the rest; the
 * added date only where it says something (services-page.ts).
 */

function CurrencyChoice() {
  const fetcher = useFetcher();
  const hydrated = useHydrated();
  return (
    <Form method="post" className="flex items-center gap-2">
      <CurrencySelector
        onChange={(currency) => fetcher.submit({ currency }, { method: "post", action: "/client/services" })}
      />
      {!hydrated && (
        <button
          type="submit"
          className="rounded-lg border border-slate-300 bg-white px-3 py-1 text-sm font-semibold"
        >
          Apply
        </button>
      )}
    </Form>
  );
}

/** The Purchase Services page: the currency choice, then a card per service, or why there are none. */
export function ServicesPage({
  services,
  error,
}: {
  services: readonly ServiceCard[];
  error: string | null;
}) {
  const { currency } = useCurrency();
  const revalidator = useRevalidator();
  return (
    <Page title="Purchase Services" actions={<CurrencyChoice />}>
      <DetectedCountryNote />
      {error ? (
        <div role="alert" className="rounded-xl border border-red-200 bg-red-50 p-6 text-red-900">
          <p>Error loading services: {error}</p>
          <a
            href="/client/services"
            onClick={(e) => {
              e.preventDefault();
              void revalidator.revalidate();
            }}
            className="mt-3 inline-block rounded-lg bg-red-700 px-4 py-2 text-sm font-semibold text-white"
          >
            Retry
          </a>
        </div>
      ) : services.length === 0 ? (
        <p className={cardClass("p-10 text-center text-slate-600")}>No services available</p>
      ) : (
        <ul className="grid gap-6 md:grid-cols-2 xl:grid-cols-3">
          {services.map((s) => (
            <li key={s.id} className={cardClass("flex flex-col p-6")} data-service-id={s.id}>
              <p className="text-xs font-semibold tracking-wide text-brand-700 uppercase">{s.category}</p>
              <h2 className="mt-1 text-lg font-bold">{s.name}</h2>
              <p className="mt-2 text-sm text-slate-600">{s.description}</p>
              <ul className="checklist mt-4 space-y-1.5 text-sm">
                {s.features.map((f) => (
                  <li key={f}>
                    <Icon name="check" />
                    {f}
                  </li>
                ))}
                {s.moreFeatures.length > 0 && (
                  <li>
                    {/* Opens to list the rest (issue 37, item 13): a native disclosure, keyboard and
                        screen-reader ready, and it works before the page's scripts arrive. */}
                    <details data-more-features className="min-w-0">
                      <summary className="cursor-pointer font-medium text-brand-700">
                        +{s.moreFeatures.length} more features
                      </summary>
                      <ul className="checklist mt-1.5 space-y-1.5">
                        {s.moreFeatures.map((f) => (
                          <li key={f}>
                            <Icon name="check" />
                            {f}
                          </li>
                        ))}
                      </ul>
                    </details>
                  </li>
                )}
              </ul>
              <ul className="packages mt-4 flex-1 space-y-3">
                {s.packages.map((p) => (
                  <li key={p.key}>
                    <div className="min-w-0">
                      <p className="flex flex-wrap items-center gap-2 text-sm font-semibold">
                        {p.name}
                        {p.key === "standard" && (
                          <Badge tone="warning" className="px-2 font-bold">
                            POPULAR
                          </Badge>
                        )}
                      </p>
                      <Price usd={p.priceUsd} showUsd className="mt-1 font-bold" />
                    </div>
                    <Link
                      to={`/client/purchase/${s.id}?package=${encodeURIComponent(p.key)}&currency=${encodeURIComponent(currency)}`}
                    >
                      Purchase
                      <span className="sr-only">{` ${s.name}, ${p.name}`}</span>
                    </Link>
                  </li>
                ))}
              </ul>
              {s.added && <p className="mt-4 text-xs text-slate-600">{`Added ${s.added}`}</p>}
            </li>
          ))}
        </ul>
      )}
    </Page>
  );
}
