import { listTeasers } from "~/features/blog/blog.server";
import { defaultPackage, servicePagePath, startingPriceUsd } from "~/features/catalogue/catalogue";
import { listServices } from "~/features/catalogue/catalogue.server";
import { AboutSection } from "~/features/site/home/AboutSection";
import { BlogSection } from "~/features/site/home/BlogSection";
import { ContactSection } from "~/features/site/home/ContactSection";
import { FloatingContactButton } from "~/features/site/home/FloatingContactButton";
import { Hero } from "~/features/site/home/Hero";
import { ReviewsSection } from "~/features/site/home/ReviewsSection";
import { ServicesSection } from "~/features/site/home/ServicesSection";
import { JsonLd } from "~/features/site/JsonLd";
import { seo } from "~/features/site/seo";
import { businessJsonLd } from "~/features/site/structured-data";
import type { Route } from "./+types/home";

export async function loader({ context }: Route.LoaderArgs) {
  const { config, database } = context.runtime;
  const services = await listServices(database.db);
  return {
    services: services.map((s) => ({
      id: s.id,
      name: s.name,
      description: s.description,
      href: servicePagePath(s),
      startingFromUsd: startingPriceUsd(s.pricing),
      features: (s.features[defaultPackage(s)] ?? []).slice(0, 3),
    })),
    posts: listTeasers(),
    business: config.business,
    jsonLd: businessJsonLd(config.business, config.publicUrl),
  };
}

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({
    title: "Email, SSL, Cloud and Hosting Support for Small Businesses",
    description:
      "Email migration, deliverability, SSL, cloud suites, data migration, hosting and backup support. Delivery in 24-48h, responses within 24 hours, 24/7 support.",
    path: "/",
    matches,
  });

export default function Home({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <JsonLd data={loaderData.jsonLd} />
      <Hero />
      <ServicesSection services={loaderData.services} />
      <AboutSection />
      <ReviewsSection />
      <BlogSection posts={loaderData.posts} />
      <ContactSection business={loaderData.business} />
      <FloatingContactButton />
    </>
  );
}

export const links: Route.LinksFunction = () => [
  { rel: "alternate", type: "application/rss+xml", title: "Blog", href: "/rss.xml" },
];
