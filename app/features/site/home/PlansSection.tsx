/**
 * The home page's care plans (issue 38, ADR 0530): each plan's name, first price and incident allowance,
 * and a link to /plans, where the cards are whole. Short on purpose: the home page keeps within its
 * HTML budget (tests/integration/html-budget.test.ts).
 */
import { Link } from "react-router";
import { Price } from "~/features/currency/Price";
import { allowanceText, type PlanTeaser } from "~/features/plans/plans";
import { Container } from "~/ui/container";

export function PlansSection({ plans }: { plans: readonly PlanTeaser[] }) {
  if (!plans.length) return null;
  return (
    <section id="plans" aria-labelledby="plans-heading" className="bg-slate-50 py-16">
      <Container>
        <h2 id="plans-heading" className="text-3xl font-bold tracking-tight">
          Care Plans
        </h2>
        <ul className="mt-6 grid gap-4 sm:grid-cols-2">
          {plans.map((p) => (
            <li key={p.slug} className="rounded-xl border border-slate-200 bg-white p-5">
              <h3 className="font-semibold">{p.name}</h3>
              <p className="text-sm text-slate-600">
                <Price usd={p.priceUsd} className="text-xl font-bold text-ink" /> /{" "}
                {p.cycle === "monthly" ? "month" : "year"} · {allowanceText(p.incidentAllowance)}
              </p>
            </li>
          ))}
        </ul>
        <Link to="/plans" className="mt-6 inline-block font-semibold text-brand-700 hover:underline">
          Compare care plans
        </Link>
      </Container>
    </section>
  );
}
