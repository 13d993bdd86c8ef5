/**
 * The care plans' price cards (ADR 0530): the /plans page shows them whole, the home page and the
 * service pages compactly. Prices are the site's one `Price` (the visitor's currency, the USD price
 * beneath when converted), as the services' price cards show theirs; both cycles are shown at once, so
 * nothing waits for script.
 */
import { Link } from "react-router";
import { Price } from "~/features/currency/Price";
import { buttonClass } from "~/ui/button";
import { Icon } from "~/ui/icon";
import {
  allowanceText,
  choosePlanPath,
  defaultCycle,
  domainsText,
  type PlanCard,
  yearlySaving,
} from "./plans";

/** How many included lines a compact card shows (the rest are on /plans). */
const COMPACT_LINES = 3;

function PlanPriceCard({
  plan,
  compact,
  headingLevel,
}: {
  plan: PlanCard;
  compact: boolean;
  headingLevel: 2 | 3;
}) {
  const saving = yearlySaving(plan);
  const cycle = defaultCycle(plan);
  const lines = compact ? plan.included.slice(0, COMPACT_LINES) : plan.included;
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <li
      className="flex flex-col rounded-xl border border-slate-200 bg-white p-6 shadow-sm"
      data-plan={plan.slug}
    >
      <Heading className="text-lg font-semibold">{plan.name}</Heading>
      {!compact && <p className="mt-2 text-sm text-slate-600">{plan.description}</p>}
      <ul aria-label="Highlights" className="mt-4 flex flex-wrap gap-2 text-xs font-semibold">
        <li className="inline-flex items-center gap-1 rounded-full bg-amber-50 px-2 py-1 text-amber-900">
          <Icon name="zap" className="size-3.5" /> {allowanceText(plan.incidentAllowance)}
        </li>
        <li className="inline-flex items-center gap-1 rounded-full bg-blue-50 px-2 py-1 text-blue-900">
          <Icon name="shield-check" className="size-3.5" /> {domainsText(plan.watchedDomains)}
        </li>
        {saving && (
          <li className="inline-flex items-center gap-1 rounded-full bg-green-50 px-2 py-1 text-green-900">
            <Icon name="star" className="size-3.5" /> Yearly: {saving.label}
          </li>
        )}
      </ul>
      <dl className="mt-4 space-y-2">
        {plan.monthlyPriceUsd !== null && (
          <div className="flex items-baseline gap-2">
            <dt className="sr-only">Monthly</dt>
            <dd className="flex items-baseline gap-1">
              <Price usd={plan.monthlyPriceUsd} showUsd className="text-3xl font-bold" />
              <span className="text-sm text-slate-600">/ month</span>
            </dd>
          </div>
        )}
        {plan.yearlyPriceUsd !== null && (
          <div className="flex items-baseline gap-2">
            <dt className="sr-only">Yearly</dt>
            <dd className="flex items-baseline gap-1">
              <Price
                usd={plan.yearlyPriceUsd}
                showUsd
                className={plan.monthlyPriceUsd === null ? "text-3xl font-bold" : "text-lg font-semibold"}
              />
              <span className="text-sm text-slate-600">/ year</span>
            </dd>
          </div>
        )}
      </dl>
      <ul className="mt-4 flex-1 space-y-1 text-sm text-slate-700">
        {lines.map((line) => (
          <li key={line} className="flex gap-2">
            <Icon name="circle-check" className="mt-0.5 size-4 shrink-0 text-green-700" />
            {line}
          </li>
        ))}
      </ul>
      <Link to={choosePlanPath(plan.slug, cycle)} className={buttonClass("primary", "mt-6")}>
        Choose plan<span className="sr-only">: {plan.name}</span>
      </Link>
      {!compact && cycle === "monthly" && plan.yearlyPriceUsd !== null && (
        <Link
          to={choosePlanPath(plan.slug, "yearly")}
          className="mt-3 text-center text-sm font-semibold text-brand-700 hover:underline"
        >
          Or pay yearly<span className="sr-only"> for {plan.name}</span>
        </Link>
      )}
    </li>
  );
}

/** The plans' cards in a grid; `compact` for a section of another page (three lines each). */
export function PlanCards({
  plans,
  compact = false,
  headingLevel = 3,
}: {
  plans: readonly PlanCard[];
  compact?: boolean;
  headingLevel?: 2 | 3;
}) {
  return (
    <ul className={`grid gap-6 sm:grid-cols-2 ${compact ? "" : "lg:grid-cols-3"}`}>
      {plans.map((plan) => (
        <PlanPriceCard key={plan.slug} plan={plan} compact={compact} headingLevel={headingLevel} />
      ))}
    </ul>
  );
}
