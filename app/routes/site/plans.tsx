/** Care plans (issue 38, ADR 0530): every active plan's price card, in the visitor's currency. */
import { Link } from "react-router";
import { PlanCards } from "~/features/plans/PlanCards";
import { publicPlans } from "~/features/plans/plans.server";
import { seo } from "~/features/site/seo";
import { Container } from "~/ui/container";
import type { Route } from "./+types/plans";

export async function loader({ context }: Route.LoaderArgs) {
  return { plans: await publicPlans(context.runtime.database.db) };
}

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({
    title: "Care Plans: Monthly IT Maintenance and Support",
    description:
      "Monthly or yearly care plans: maintenance checks, SSL and mail-security watch, backup verification and support incidents included, at a fixed price.",
    path: "/plans",
    matches,
  });

export default function Plans({ loaderData }: Route.ComponentProps) {
  const { plans } = loaderData;
  return (
    <>
      <section className="bg-gradient-to-br from-brand-50 to-white">
        <Container className="py-14">
          <h1 className="text-4xl font-bold tracking-tight sm:text-5xl">Care Plans</h1>
          <p className="mt-4 max-w-2xl text-xl text-slate-800">
            Your email, certificates and backups looked after every month, for a fixed price.
          </p>
          <p className="mt-3 max-w-2xl text-slate-600">
            A care plan renews monthly or yearly. Each includes regular maintenance checks, a watch on your
            domains' SSL certificates and mail security, and a number of support incidents per period, so a
            problem is fixed without a new order. Pay yearly and save.
          </p>
        </Container>
      </section>
      <section aria-labelledby="plans-heading" className="bg-slate-50 py-14">
        <Container>
          <h2 id="plans-heading" className="sr-only">
            Plans and prices
          </h2>
          {plans.length ? (
            <PlanCards plans={plans} />
          ) : (
            <p className="text-slate-600">
              No care plans are offered at the moment.{" "}
              <Link to="/#contact" className="font-semibold text-brand-700 underline">
                Contact us
              </Link>{" "}
              about regular maintenance.
            </p>
          )}
          <p className="mt-8 text-sm text-slate-600">
            Prices are set in US dollars and shown in your currency at today's rate. Need one job only? See
            the{" "}
            <Link to="/services/per-incident-support" className="font-semibold text-brand-700 underline">
              per-incident support
            </Link>{" "}
            service.
          </p>
        </Container>
      </section>
    </>
  );
}
