import { Link } from "react-router";
import { Price } from "~/features/currency/Price";
import { QuoteRequestForm } from "~/features/quotes/QuoteRequestForm";
import { Container } from "~/ui/container";
import { Icon } from "~/ui/icon";
import { SectionLink } from "../SectionLink";

export interface ServiceCard {
  id: string;
  name: string;
  description: string;
  href: string;
  /** Lowest positive package price, or null when none is positive. */
  startingFromUsd: number | null;
  /** The first three features of the basic package. */
  features: string[];
}

export function ServicesSection({ services }: { services: ServiceCard[] }) {
  return (
    <section id="services" aria-labelledby="services-heading" className="py-20">
      <Container>
        <h2 id="services-heading" className="text-3xl font-bold tracking-tight">
          Services
        </h2>
        <p className="mt-3 max-w-2xl text-slate-600">
          Fixed prices, no hidden fees, and delivery in 24-48h for most projects.
        </p>
        <ul className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {services.map((s) => (
            <li key={s.id} className="flex flex-col rounded-xl border border-slate-200 p-6 shadow-sm">
              <h3 className="text-lg font-semibold">{s.name}</h3>
              <p className="mt-2 flex-1 text-sm text-slate-600">{s.description}</p>
              <ul aria-label="Highlights" className="mt-4 flex flex-wrap gap-2 text-xs font-semibold">
                <li className="inline-flex items-center gap-1 rounded-full bg-amber-50 px-2 py-1 text-amber-900">
                  <Icon name="star" className="size-3.5" /> 4.9/5
                </li>
                <li className="inline-flex items-center gap-1 rounded-full bg-green-50 px-2 py-1 text-green-900">
                  <Icon name="clock" className="size-3.5" /> 24-48h delivery
                </li>
              </ul>
              {s.startingFromUsd !== null && (
                <p className="mt-4 text-sm text-slate-600">
                  Starting from <Price usd={s.startingFromUsd} className="text-xl font-bold text-ink" />
                </p>
              )}
              <ul className="mt-4 space-y-1 text-sm text-slate-700">
                {s.features.map((f) => (
                  <li key={f} className="flex gap-2">
                    <Icon name="circle-check" className="mt-0.5 size-4 shrink-0 text-green-700" />
                    {f}
                  </li>
                ))}
              </ul>
              <Link to={s.href} className="mt-6 font-semibold text-brand-700 hover:underline">
                Learn More<span className="sr-only"> about {s.name}</span>
              </Link>
            </li>
          ))}
        </ul>
        <div
          id="quote"
          className="mt-12 grid gap-8 rounded-2xl bg-brand-700 p-6 text-white sm:p-8 lg:grid-cols-[2fr_3fr]"
        >
          <div>
            <h3 className="text-2xl font-bold">Get Custom Quote</h3>
            <p className="mt-2 text-brand-50">
              Need something else, or more of it? A migration of hundreds of mailboxes, an SSL rollout over
              many domains: tell us what you need and get a custom quote within 24 hours.
            </p>
            <p className="mt-4 text-sm text-brand-50">
              Prefer to talk first?{" "}
              <SectionLink section="contact" className="font-semibold text-white underline">
                Contact us
              </SectionLink>
              .
            </p>
          </div>
          <QuoteRequestForm services={services.map((s) => s.name)} action="/?index#quote" />
        </div>
      </Container>
    </section>
  );
}
