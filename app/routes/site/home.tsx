import { CheckCircle2, Clock, Star, ThumbsUp, Users } from "lucide-react";
import { Link } from "react-router";
import { defaultPackage, servicePagePath, startingPriceUsd } from "~/features/catalogue/catalogue";
import { listServices } from "~/features/catalogue/catalogue.server";
import { ContactForm } from "~/features/contact/ContactForm";
import { handleContactForm } from "~/features/contact/contact-action.server";
import { Price } from "~/features/currency/Price";
import { NewsletterForm } from "~/features/newsletter/NewsletterForm";
import { handleNewsletterForm } from "~/features/newsletter/newsletter.server";
import { pageTitle } from "~/features/site/meta";
import { SectionLink } from "~/features/site/SectionLink";
import { buttonClass } from "~/ui/button";
import { Container } from "~/ui/container";
import type { Route } from "./+types/home";

export async function loader({ context }: Route.LoaderArgs) {
  const services = await listServices(context.runtime.database.db);
  return {
    services: services.map((s) => ({
      id: s.id,
      name: s.name,
      description: s.description,
      href: servicePagePath(s),
      startingFromUsd: startingPriceUsd(s.pricing),
      features: (s.features[defaultPackage(s)] ?? []).slice(0, 3),
    })),
  };
}

/** The contact form (without JavaScript) and the newsletter box post here. */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  if (form.get("intent") === "newsletter") return handleNewsletterForm(form, context);
  return handleContactForm(form, request, context, "site");
}

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: pageTitle("Email, SSL, Cloud and Hosting Support for Small Businesses", matches) },
  {
    name: "description",
    content:
      "Email migration, deliverability, SSL, cloud suites, data migration, hosting and backup support. Delivery in 24-48h, responses within 24 hours, 24/7 support.",
  },
];

const CLAIMS = [
  { icon: Users, label: "50+ Happy Clients" },
  { icon: Star, label: "4.9/5 Rating" },
  { icon: ThumbsUp, label: "100% Success Rate" },
];

export default function Home({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <section
        id="home"
        aria-labelledby="hero-heading"
        className="bg-gradient-to-br from-brand-50 via-white to-white"
      >
        <Container className="py-20 sm:py-28">
          <h1 id="hero-heading" className="max-w-3xl text-4xl font-bold tracking-tight sm:text-6xl">
            IT services that keep your email, domains and cloud running
          </h1>
          <p className="mt-6 max-w-2xl text-lg text-slate-600">
            Email migration, deliverability, SSL, cloud suites, data migration, hosting and backups, handled
            by one expert. Delivery in 24-48h and responses within 24 hours.
          </p>
          <ul className="mt-8 flex flex-wrap gap-x-8 gap-y-3">
            {CLAIMS.map(({ icon: Icon, label }) => (
              <li key={label} className="flex items-center gap-2 font-semibold text-slate-800">
                <Icon aria-hidden="true" className="size-5 text-brand-700" />
                {label}
              </li>
            ))}
          </ul>
          <div className="mt-10 flex flex-wrap gap-3">
            <SectionLink section="contact" className={buttonClass("primary", "px-6 py-3 text-base")}>
              Contact Us
            </SectionLink>
            <a href="#services" className={buttonClass("secondary", "px-6 py-3 text-base")}>
              View Services
            </a>
          </div>
        </Container>
      </section>

      <section id="services" aria-labelledby="services-heading" className="py-20">
        <Container>
          <h2 id="services-heading" className="text-3xl font-bold tracking-tight">
            Services
          </h2>
          <ul className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
            {loaderData.services.map((s) => (
              <li key={s.id} className="flex flex-col rounded-xl border border-slate-200 p-6 shadow-sm">
                <h3 className="text-lg font-semibold">{s.name}</h3>
                <p className="mt-2 flex-1 text-sm text-slate-600">{s.description}</p>
                {s.startingFromUsd !== null && (
                  <p className="mt-4 text-sm text-slate-600">
                    Starting from <Price usd={s.startingFromUsd} className="text-xl font-bold text-ink" />
                  </p>
                )}
                <ul className="mt-4 space-y-1 text-sm text-slate-700">
                  {s.features.map((f) => (
                    <li key={f} className="flex gap-2">
                      <CheckCircle2 aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-green-700" />
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
          <div id="quote" className="mt-12 rounded-2xl bg-brand-700 p-8 text-white">
            <h3 className="text-2xl font-bold">Need something else?</h3>
            <p className="mt-2 text-brand-50">
              Tell us what you need and get a custom quote within 24 hours.
            </p>
            <SectionLink section="contact" className={buttonClass("secondary", "mt-6")}>
              Get Custom Quote
            </SectionLink>
          </div>
        </Container>
      </section>

      <section id="about" aria-labelledby="about-heading" className="bg-slate-50 py-20">
        <Container>
          <h2 id="about-heading" className="text-3xl font-bold tracking-tight">
            About
          </h2>
        </Container>
      </section>

      <section id="reviews" aria-labelledby="reviews-heading" className="py-20">
        <Container>
          <h2 id="reviews-heading" className="text-3xl font-bold tracking-tight">
            What Clients Say
          </h2>
        </Container>
      </section>

      <section id="blog" aria-labelledby="blog-heading" className="bg-slate-50 py-20">
        <Container>
          <h2 id="blog-heading" className="text-3xl font-bold tracking-tight">
            Blog
          </h2>
          <div className="mt-10 max-w-xl">
            <NewsletterForm />
          </div>
        </Container>
      </section>

      <section id="contact" aria-labelledby="contact-heading" className="py-20">
        <Container>
          <h2 id="contact-heading" className="text-3xl font-bold tracking-tight">
            Contact
          </h2>
          <p className="mt-4 flex items-center gap-2 text-slate-600">
            <Clock aria-hidden="true" className="size-5" /> Responses within 24 hours.
          </p>
          <div className="mt-8 max-w-2xl">
            <ContactForm />
          </div>
        </Container>
      </section>
    </>
  );
}
