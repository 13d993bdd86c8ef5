import { buttonClass } from "~/ui/button";
import { Container } from "~/ui/container";
import { Icon, type IconName } from "~/ui/icon";
import { SectionLink } from "../SectionLink";

const CLAIMS: { icon: IconName; label: string }[] = [
  { icon: "users", label: "50+ Happy Clients" },
  { icon: "star", label: "4.9/5 Rating" },
  { icon: "thumbs-up", label: "100% Success Rate" },
];

export function Hero() {
  return (
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
          Email migration, deliverability, SSL, cloud suites, data migration, hosting and backups, handled by
          one expert. Delivery in 24-48h, responses within 24 hours and 24/7 support.
        </p>
        <ul className="mt-8 flex flex-wrap gap-x-8 gap-y-3">
          {CLAIMS.map(({ icon, label }) => (
            <li key={label} className="flex items-center gap-2 font-semibold text-slate-800">
              <Icon name={icon} className="size-5 text-brand-700" />
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
  );
}
