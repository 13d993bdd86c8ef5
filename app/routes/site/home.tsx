import { Suspense } from "react";
import { listTeasers } from "~/features/blog/blog.server";
import { defaultPackage, servicePagePath, startingPriceUsd } from "~/features/catalogue/catalogue";
import { publicCatalogue } from "~/features/catalogue/catalogue.server";
import { handleContactForm } from "~/features/contact/contact-action.server";
import { handleNewsletterForm } from "~/features/newsletter/newsletter.server";
import { planTeaser } from "~/features/plans/plans";
import { publicPlans } from "~/features/plans/plans.server";
import { handleQuoteForm } from "~/features/quotes/quote-action.server";
import { QUOTE_INTENT } from "~/features/quotes/quote-request-result";
import { Hero } from "~/features/site/home/Hero";
import { JsonLd } from "~/features/site/JsonLd";
import { seo } from "~/features/site/seo";
import { businessJsonLd } from "~/features/site/structured-data";
import { lazyChunk } from "~/ui/lazy-chunk";
import type { Route } from "./+types/home";

/*
 * The sections after the hero are separate chunks: the server renders them into the HTML as usual, and
 * browser fetches them before it hydrates the page, so the first scripts stay within the JS budget
 * (docs/decisions/0101-home-js-budget-and-lazy-chunks.md, 0108-chunks-before-hydration.md).
 */
/** The document is the server's home page (not a client-side visit after another page). */
const servedHome = () => document.getElementById("contact") !== null;
const ServicesSection = lazyChunk(
  () => import("~/features/site/home/ServicesSection").then((m) => m.ServicesSection),
  servedHome,
);
const PlansSection = lazyChunk(
  () => import("~/features/site/home/PlansSection").then((m) => m.PlansSection),
  servedHome,
);
const AboutSection = lazyChunk(
  () => import("~/features/site/home/AboutSection").then((m) => m.AboutSection),
  servedHome,
);
const ReviewsSection = lazyChunk(
  () => import("~/features/site/home/ReviewsSection").then((m) => m.ReviewsSection),
  servedHome,
);
const BlogSection = lazyChunk(
  () => import("~/features/site/home/BlogSection").then((m) => m.BlogSection),
  servedHome,
);
const FloatingContactButton = lazyChunk(
  () => import("~/features/site/home/FloatingContactButton").then((m) => m.FloatingContactButton),
  servedHome,
);
const ContactSection = lazyChunk(
  () => import("~/features/site/home/ContactSection").then((m) => m.ContactSection),
  servedHome,
);

export async function loader({ context }: Route.LoaderArgs) {
  const { config, database } = context.runtime;
  const [services, plans] = await Promise.all([publicCatalogue(database.db), publicPlans(database.db)]);
  return {
    services: services.map((s) => ({
      id: s.id,
      name: s.name,
      description: s.description,
      href: servicePagePath(s),
      startingFromUsd: startingPriceUsd(s.pricing),
      features: (s.features[defaultPackage(s)] ?? []).slice(0, 3),
    })),
    plans: plans.map(planTeaser),
    posts: listTeasers(),
    jsonLd: businessJsonLd(config.business, config.publicUrl),
  };
}

/** The contact form, the quote request form and the newsletter box post here. */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  if (form.get("intent") === "newsletter") return handleNewsletterForm(form, context);
  if (form.get("intent") === QUOTE_INTENT) {
    return handleQuoteForm(form, request, context, { source: "site", clientId: null, accountEmail: null });
  }
  return handleContactForm(form, request, context, "site");
}

/** A contact post that got no answer keeps the form filled and shows the spec's alert. */
export async function clientAction({ request, serverAction }: Route.ClientActionArgs) {
  // Loaded only when a form is sent, so it costs the page's first load nothing.
  const { withContactFallback } = await import("~/features/contact/contact-client");
  return withContactFallback(request, serverAction);
}

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({
    title: "Email, SSL, Cloud and Hosting Support for Small Businesses",
    description:
      "Email migration, deliverability, SSL, cloud suites, data migration, hosting and backup support. Delivery in 24-48h, responses within 24 hours, 24/7 support.",
    path: "/",
    matches,
  });

/** Only seen on a client-side visit before the chunks arrive: keeps the page height. */
function BelowFoldPlaceholder() {
  // No section ids here: a section link waits for the real section instead of scrolling to a stand-in
  // that moves when the chunks arrive.
  return <div className="min-h-[200vh]" />;
}

export default function Home({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <JsonLd data={loaderData.jsonLd} />
      <Hero />
      <Suspense fallback={<BelowFoldPlaceholder />}>
        <ServicesSection services={loaderData.services} />
        <PlansSection plans={loaderData.plans} />
        <AboutSection />
        <ReviewsSection />
        <BlogSection posts={loaderData.posts} />
        <ContactSection />
      </Suspense>
      <Suspense fallback={null}>
        <FloatingContactButton />
      </Suspense>
    </>
  );
}

export const links: Route.LinksFunction = () => [
  { rel: "alternate", type: "application/rss+xml", title: "Blog", href: "/rss.xml" },
];
