import { ArrowLeft } from "lucide-react";
import { Link } from "react-router";
import type { Service } from "~/db/schema";
import { Price } from "~/features/currency/Price";
import { buttonClass } from "~/ui/button";
import { Container } from "~/ui/container";

/** The common head of a service page: back link, hero with the two calls to action, and its packages. */
export function ServiceOverview({ service }: { service: Service }) {
  return (
    <>
      <section className="bg-gradient-to-br from-brand-50 to-white">
        <Container className="py-14">
          <Link
            to="/"
            className="inline-flex items-center gap-1 text-sm font-medium text-brand-700 hover:underline"
          >
            <ArrowLeft aria-hidden="true" className="size-4" /> Back to Home
          </Link>
          <p className="mt-6 text-sm font-semibold uppercase tracking-wide text-brand-700">
            {service.category}
          </p>
          <h1 className="mt-2 text-4xl font-bold tracking-tight sm:text-5xl">{service.name}</h1>
          <p className="mt-4 max-w-2xl text-lg text-slate-600">{service.description}</p>
          <div className="mt-8 flex flex-wrap gap-3">
            <Link to="/#quote" className={buttonClass("primary")}>
              Get Free Quote
            </Link>
            <Link to="/#contact" className={buttonClass("secondary")}>
              Contact Us
            </Link>
          </div>
        </Container>
      </section>
      <section aria-labelledby="pricing-heading">
        <Container className="py-14">
          <h2 id="pricing-heading" className="text-2xl font-bold">
            Pricing
          </h2>
          <ul className="mt-6 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
            {service.packageOrder.map((pkg) => (
              <li key={pkg} className="flex flex-col rounded-xl border border-slate-200 p-6">
                <h3 className="font-semibold">{service.packageNames[pkg] ?? pkg}</h3>
                <Price usd={service.pricing[pkg] ?? 0} showUsd className="mt-2 text-3xl font-bold" />
                <ul className="mt-4 flex-1 space-y-1 text-sm text-slate-600">
                  {(service.features[pkg] ?? []).map((f) => (
                    <li key={f}>{f}</li>
                  ))}
                </ul>
                <Link
                  to={`/client/purchase/${service.slug}?package=${encodeURIComponent(pkg)}`}
                  className={buttonClass("primary", "mt-6")}
                >
                  Order Now
                </Link>
              </li>
            ))}
          </ul>
        </Container>
      </section>
    </>
  );
}
