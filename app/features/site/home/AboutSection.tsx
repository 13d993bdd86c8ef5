import { Container } from "~/ui/container";
import { Icon, type IconName } from "~/ui/icon";

const CHECKLIST = [
  "Cloud migration and data transfer",
  "DNS and email security troubleshooting",
  "SSL install and renewal",
  "24/7 support",
  "Pricing with no hidden fees",
];

const VALUES: { icon: IconName; title: string; text: string }[] = [
  {
    icon: "crosshair",
    title: "Precision",
    text: "Every change is planned, tested and documented, so nothing is lost and nothing is guessed.",
  },
  {
    icon: "zap",
    title: "Fast Turnaround",
    text: "Delivery in 24-48h for most projects, and a response to every message within 24 hours.",
  },
  {
    icon: "shield-check",
    title: "Secure",
    text: "Credentials are used only for your project, access is removed afterwards, and your data stays yours.",
  },
];

export function AboutSection() {
  return (
    <section id="about" aria-labelledby="about-heading" className="bg-slate-50 py-20">
      <Container className="grid gap-12 lg:grid-cols-2">
        <div>
          <h2 id="about-heading" className="text-3xl font-bold tracking-tight">
            About
          </h2>
          <p className="mt-4 text-slate-600">
            A freelance IT specialist for small businesses: the person you call when email has to move, a
            domain has to be trusted, or a certificate must not expire. 50+ happy clients, a 4.9/5 rating and
            a 100% success rate.
          </p>
          <ul className="mt-6 space-y-3">
            {CHECKLIST.map((item) => (
              <li key={item} className="flex gap-3 text-slate-800">
                <Icon name="circle-check" className="mt-0.5 size-5 shrink-0 text-green-700" />
                {item}
              </li>
            ))}
          </ul>
        </div>
        <ul className="grid gap-4">
          {VALUES.map(({ icon, title, text }) => (
            <li key={title} className="flex gap-4 rounded-xl bg-white p-6 shadow-sm">
              <Icon name={icon} className="size-8 shrink-0 text-brand-700" />
              <div>
                <h3 className="font-semibold">{title}</h3>
                <p className="mt-1 text-sm text-slate-600">{text}</p>
              </div>
            </li>
          ))}
        </ul>
      </Container>
    </section>
  );
}
