import { Link } from "react-router";
import { type BusinessIdentity, phoneLink, whatsappLink } from "~/features/business/business";
import { SERVICE_PAGES } from "~/features/catalogue/catalogue";
import { Container } from "~/ui/container";
import { Icon } from "~/ui/icon";
import type { HomeSection } from "./chrome";
import { SectionLink } from "./SectionLink";

const QUICK_LINKS: ReadonlyArray<{ id: HomeSection; label: string }> = [
  { id: "home", label: "Home" },
  { id: "services", label: "Services" },
  { id: "about", label: "About" },
  { id: "reviews", label: "Reviews" },
  { id: "blog", label: "Blog" },
  { id: "contact", label: "Contact" },
];

const SOCIAL_LABELS: Record<keyof BusinessIdentity["social"], string> = {
  linkedin: "LinkedIn",
  twitter: "X (Twitter)",
  facebook: "Facebook",
  github: "GitHub",
};

export function Footer({ business }: { business: BusinessIdentity }) {
  const socials = (Object.keys(SOCIAL_LABELS) as Array<keyof typeof SOCIAL_LABELS>)
    .map((key) => ({ key, label: SOCIAL_LABELS[key], href: business.social[key] }))
    .filter((s): s is { key: keyof typeof SOCIAL_LABELS; label: string; href: string } => Boolean(s.href));
  const linkClass = "text-sm text-slate-300 hover:text-white";

  return (
    <footer className="print:hidden bg-ink text-slate-300">
      <Container className="grid gap-10 py-14 sm:grid-cols-2 lg:grid-cols-4">
        <div>
          <p className="text-lg font-bold text-white">{business.name}</p>
          <p className="mt-3 text-sm leading-6">
            Email migration, deliverability, SSL, cloud suites, data migration, hosting and backup support for
            small businesses, with responses within 24 hours.
          </p>
          {socials.length > 0 && (
            <ul aria-label="Social links" className="mt-4 flex flex-wrap gap-2">
              {socials.map((s) => (
                <li key={s.key}>
                  <a
                    href={s.href}
                    rel="noopener noreferrer"
                    target="_blank"
                    className="inline-block rounded-md border border-slate-600 px-2.5 py-1 text-xs font-medium text-slate-200 hover:border-white hover:text-white"
                  >
                    {s.label}
                  </a>
                </li>
              ))}
            </ul>
          )}
        </div>

        <nav aria-labelledby="footer-quick-links">
          <h2 id="footer-quick-links" className="text-sm font-semibold uppercase tracking-wide text-white">
            Quick Links
          </h2>
          <ul className="mt-4 space-y-2">
            {QUICK_LINKS.map((l) => (
              <li key={l.id}>
                <SectionLink section={l.id} className={linkClass}>
                  {l.label}
                </SectionLink>
              </li>
            ))}
            <li>
              <Link to="/client/login" className={linkClass}>
                Client Login
              </Link>
            </li>
          </ul>
        </nav>

        <nav aria-labelledby="footer-services">
          <h2 id="footer-services" className="text-sm font-semibold uppercase tracking-wide text-white">
            Services
          </h2>
          <ul className="mt-4 space-y-2">
            {SERVICE_PAGES.map((p) => (
              <li key={p.slug}>
                <Link to={`/services/${p.slug}`} className={linkClass}>
                  {p.label}
                </Link>
              </li>
            ))}
            <li>
              <Link to="/plans" className={linkClass}>
                Care Plans
              </Link>
            </li>
            <li>
              <Link to="/check" className={linkClass}>
                Free Domain Check
              </Link>
            </li>
          </ul>
        </nav>

        <div>
          <h2 className="text-sm font-semibold uppercase tracking-wide text-white">Contact</h2>
          <ul className="mt-4 space-y-3 text-sm">
            <li className="flex items-start gap-2">
              <Icon name="mail" className="mt-0.5 size-4 shrink-0" />
              <a href={`mailto:${business.email}`} className={linkClass}>
                {business.email}
              </a>
            </li>
            <li className="flex items-start gap-2">
              <Icon name="phone" className="mt-0.5 size-4 shrink-0" />
              <a href={phoneLink(business)} className={linkClass}>
                {business.phone}
              </a>
            </li>
            <li className="flex items-start gap-2">
              <Icon name="message-circle" className="mt-0.5 size-4 shrink-0" />
              <a
                href={whatsappLink(business)}
                rel="noopener noreferrer"
                target="_blank"
                className={linkClass}
              >
                WhatsApp
              </a>
            </li>
            <li className="flex items-start gap-2">
              <Icon name="map-pin" className="mt-0.5 size-4 shrink-0" />
              <span>{business.address}</span>
            </li>
          </ul>
        </div>
      </Container>
      <div className="border-t border-slate-700">
        {/* The room at the bottom is Mech's (its bubble sits 1rem from the bottom, 3rem high): at the end
            of the page nothing of the footer is under it (issue 37, item 13). */}
        <Container className="flex flex-col items-center justify-between gap-3 pt-6 pb-20 text-sm sm:flex-row">
          <p>
            © {new Date().getFullYear()} {business.legalName}. All rights reserved.
          </p>
          <ul className="flex gap-4">
            <li>
              <Link to="/privacy" className={linkClass}>
                Privacy Policy
              </Link>
            </li>
            <li>
              <Link to="/terms" className={linkClass}>
                Terms of Service
              </Link>
            </li>
          </ul>
        </Container>
      </div>
    </footer>
  );
}
