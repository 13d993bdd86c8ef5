/** schema.org data for the business and for articles (JSON-LD). Pure. */
import type { BlogArticle } from "~/features/blog/blog";
import type { BusinessIdentity } from "~/features/business/business";
import { absoluteUrl } from "./seo";

export function businessJsonLd(business: BusinessIdentity, publicUrl: string) {
  const sameAs = Object.values(business.social).filter((v): v is string => Boolean(v));
  return {
    "@context": "https://schema.org",
    "@type": "ProfessionalService",
    "@id": absoluteUrl(publicUrl, "/#business"),
    name: business.name,
    legalName: business.legalName,
    url: absoluteUrl(publicUrl, "/"),
    email: business.email,
    telephone: business.phone,
    address: business.address,
    image: absoluteUrl(publicUrl, "/og-image.svg"),
    aggregateRating: { "@type": "AggregateRating", ratingValue: "4.9", bestRating: "5", reviewCount: "50" },
    openingHours: ["Mo-Fr 09:00-18:00", "Sa 10:00-16:00"],
    ...(sameAs.length ? { sameAs } : {}),
  };
}

export function articleJsonLd(article: BlogArticle, business: BusinessIdentity, publicUrl: string) {
  const url = absoluteUrl(publicUrl, `/blog/${article.slug}`);
  return {
    "@context": "https://schema.org",
    "@type": "BlogPosting",
    headline: article.title,
    description: article.excerpt,
    datePublished: article.date,
    articleSection: article.category,
    image: absoluteUrl(publicUrl, article.image),
    url,
    mainEntityOfPage: url,
    author: { "@type": "Organization", name: article.author },
    publisher: { "@type": "Organization", name: business.name, url: absoluteUrl(publicUrl, "/") },
  };
}
