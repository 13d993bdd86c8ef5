import { Link } from "react-router";
import type { Service } from "~/db/schema";
import { offeredPackages } from "~/features/catalogue/catalogue";
import { Price } from "~/features/currency/Price";
import { PlanCards } from "~/features/plans/PlanCards";
import type { PlanCard } from "~/features/plans/plans";
import { buttonClass } from "~/ui/button";
import { Container } from "~/ui/container";
import { Icon } from "~/ui/icon";
import type { ContentSection, ServicePageContent } from "./page-content";

function Section({ section }: { section: ContentSection }) {
  const headingId = `${section.id}-heading`;
  return (
    <section aria-labelledby={headingId} className="border-t border-slate-100 py-14">
      <Container>
        <h2 id={headingId} className="text-2xl font-bold">
          {section.title}
        </h2>
        {section.intro && <p className="mt-3 max-w-2xl text-slate-600">{section.intro}</p>}
        {section.style === "list" ? (
          <ul className="mt-6 grid gap-3 sm:grid-cols-2">
            {section.items.map((item) => (
              <li key={item.title} className="flex gap-3">
                <Icon name="circle-check" className="mt-0.5 size-5 shrink-0 text-green-700" />
                <span>
                  <span className="font-semibold">{item.title}</span>
                  <span className="text-slate-600"> — {item.text}</span>
                </span>
              </li>
            ))}
          </ul>
        ) : (
          <ul className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
            {section.items.map((item) => (
              <li key={item.title} className="rounded-xl border border-slate-200 p-5">
                <h3 className="font-semibold">{item.title}</h3>
                <p className="mt-1 text-sm text-slate-600">{item.text}</p>
              </li>
            ))}
          </ul>
        )}
      </Container>
    </section>
  );
}

function PriceCards({ service, title, note }: { service: Service; title: string; note?: string }) {
  return (
    <section aria-labelledby="pricing-heading" className="bg-slate-50 py-14">
      <Container>
        <h2 id="pricing-heading" className="text-2xl font-bold">
          {title}
        </h2>
        {note && <p className="mt-3 text-slate-600">{note}</p>}
        <ul className="mt-6 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {offeredPackages(service).map((pkg) => (
            <li key={pkg.key} className="flex flex-col rounded-xl border border-slate-200 bg-white p-6">
              <h3 className="font-semibold">{pkg.name}</h3>
              <Price usd={pkg.priceUsd} showUsd className="mt-2 text-3xl font-bold" />
              <ul className="mt-4 flex-1 space-y-1 text-sm text-slate-600">
                {pkg.features.map((f) => (
                  <li key={f} className="flex gap-2">
                    <Icon name="circle-check" className="mt-0.5 size-4 shrink-0 text-green-700" />
                    {f}
                  </li>
                ))}
              </ul>
              <Link
                to={`/client/purchase/${service.slug}?package=${encodeURIComponent(pkg.key)}`}
                className={buttonClass("primary", "mt-6")}
              >
                Order Now<span className="sr-only">: {pkg.name}</span>
              </Link>
            </li>
          ))}
        </ul>
      </Container>
    </section>
  );
}

/**
 * The common layout of the eight service pages: back link, hero with Get Free Quote and Contact Us,
 * the page's own sections, process, pricing, FAQ (native disclosure widgets, so keyboard and screen
 * readers work without script) and a closing call to action.
 */
/** The care plans that cover this kind of work, compactly, with a link to /plans (ADR 0530). */
function PlansStrip({ plans }: { plans: readonly PlanCard[] }) {
  return (
    <section aria-labelledby="plans-heading" className="border-t border-slate-100 py-14">
      <Container>
        <h2 id="plans-heading" className="text-2xl font-bold">
          Covered by a care plan
        </h2>
        <p className="mt-3 max-w-2xl text-slate-600">
          Need this looked after every month? A care plan includes it, with support incidents each period.
        </p>
        <div className="mt-6">
          <PlanCards plans={plans} compact />
        </div>
        <Link to="/plans" className="mt-6 inline-block font-semibold text-brand-700 hover:underline">
          Compare care plans
        </Link>
      </Container>
    </section>
  );
}

export function ServicePage({
  service,
  content,
  plans = [],
}: {
  service: Service;
  content: ServicePageContent;
  plans?: readonly PlanCard[];
}) {
  return (
    <>
      <section className="bg-gradient-to-br from-brand-50 to-white">
        <Container className="py-14">
          <Link
            to="/"
            className="inline-flex items-center gap-1 text-sm font-medium text-brand-700 hover:underline"
          >
            <Icon name="arrow-left" className="size-4" /> Back to Home
          </Link>
          <p className="mt-6 text-sm font-semibold uppercase tracking-wide text-brand-700">
            {service.category}
          </p>
          <h1 className="mt-2 text-4xl font-bold tracking-tight sm:text-5xl">{service.name}</h1>
          <p className="mt-4 max-w-2xl text-xl text-slate-800">{content.tagline}</p>
          <p className="mt-3 max-w-2xl text-slate-600">{service.description}</p>
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

      {content.sections.map((s) => (
        <Section key={s.id} section={s} />
      ))}

      {content.panel && (
        <section aria-labelledby="panel-heading" className="py-14">
          <Container>
            <div className="rounded-2xl bg-red-50 p-8 ring-1 ring-red-200">
              <h2 id="panel-heading" className="flex items-center gap-2 text-2xl font-bold text-red-900">
                <Icon name="siren" className="size-6" /> {content.panel.title}
              </h2>
              <p className="mt-2 text-red-900">{content.panel.text}</p>
              <ul className="mt-4 list-disc space-y-1 pl-6 text-red-900">
                {content.panel.points.map((p) => (
                  <li key={p}>{p}</li>
                ))}
              </ul>
            </div>
          </Container>
        </section>
      )}

      <section aria-labelledby="process-heading" className="border-t border-slate-100 py-14">
        <Container>
          <h2 id="process-heading" className="text-2xl font-bold">
            {content.process.title}
          </h2>
          <ol className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {content.process.steps.map((s, i) => (
              <li key={s.title} className="flex gap-4 rounded-xl border border-slate-200 p-5">
                <span
                  aria-hidden="true"
                  className="grid size-9 shrink-0 place-items-center rounded-full bg-brand-600 font-bold text-white"
                >
                  {i + 1}
                </span>
                <span>
                  <span className="block font-semibold">{s.title}</span>
                  <span className="block text-sm text-slate-600">{s.text}</span>
                </span>
              </li>
            ))}
          </ol>
        </Container>
      </section>

      {content.pricing && (
        <PriceCards service={service} title={content.pricing.title} note={content.pricing.note} />
      )}

      {plans.length > 0 && <PlansStrip plans={plans} />}

      <section aria-labelledby="faq-heading" className="py-14">
        <Container className="max-w-3xl">
          <h2 id="faq-heading" className="text-2xl font-bold">
            {content.faq.title}
          </h2>
          <div className="mt-6 divide-y divide-slate-200 rounded-xl border border-slate-200">
            {content.faq.entries.map((f) => (
              <details key={f.question} className="group p-5">
                <summary className="flex cursor-pointer list-none items-center justify-between gap-4 font-semibold">
                  {f.question}
                  <Icon
                    name="chevron-down"
                    className="size-5 shrink-0 transition-transform group-open:rotate-180"
                  />
                </summary>
                <p className="mt-3 text-slate-600">{f.answer}</p>
              </details>
            ))}
          </div>
        </Container>
      </section>

      <section aria-labelledby="cta-heading" className="bg-brand-700 py-14 text-white">
        <Container className="text-center">
          <h2 id="cta-heading" className="text-3xl font-bold">
            {content.closing.title}
          </h2>
          <p className="mt-3 text-brand-50">{content.closing.text}</p>
          <div className="mt-8 flex flex-wrap justify-center gap-3">
            <Link to={`/client/purchase/${service.slug}`} className={buttonClass("secondary")}>
              Buy Now
            </Link>
            <Link to="/#quote" className={buttonClass("secondary")}>
              Get Free Quote
            </Link>
            <Link
              to="/#contact"
              className="inline-flex items-center rounded-lg px-4 py-2 text-sm font-semibold text-white ring-1 ring-white hover:bg-white/10"
            >
              Contact Us
            </Link>
          </div>
        </Container>
      </section>
    </>
  );
}
