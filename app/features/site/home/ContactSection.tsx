import { whatsappLink } from "~/features/business/business";
import { ContactForm } from "~/features/contact/ContactForm";
import { useRootData } from "~/features/site/root-data";
import { Container } from "~/ui/container";
import { Icon } from "~/ui/icon";

/**
 * The home contact section: the contact form, contact cards (email, WhatsApp) and business hours from
 * configuration. A lazy chunk of the home page, so the form costs the first paint nothing.
 */
export function ContactSection() {
  const { business } = useRootData();
  const hours = [business.hours.weekdays, business.hours.saturday, business.hours.sunday];
  return (
    <section id="contact" aria-labelledby="contact-heading" className="py-20">
      <Container>
        <h2 id="contact-heading" className="text-3xl font-bold tracking-tight">
          Contact
        </h2>
        <p className="mt-3 flex items-center gap-2 text-slate-600">
          <Icon name="clock" className="size-5" /> Responses within 24 hours.
        </p>
        <div className="mt-10 grid gap-8 lg:grid-cols-[3fr_2fr]">
          <div>
            <ContactForm business={business} />
          </div>
          <div className="grid gap-4">
            <a
              href={`mailto:${business.email}`}
              className="flex gap-4 rounded-xl border border-slate-200 p-6 hover:border-brand-600"
            >
              <Icon name="mail" className="size-6 shrink-0 text-brand-700" />
              <span>
                <span className="block font-semibold">Email</span>
                <span className="block text-sm text-slate-600">{business.email}</span>
              </span>
            </a>
            <a
              href={whatsappLink(business)}
              target="_blank"
              rel="noopener noreferrer"
              className="flex gap-4 rounded-xl border border-slate-200 p-6 hover:border-brand-600"
            >
              <Icon name="message-circle" className="size-6 shrink-0 text-green-700" />
              <span>
                <span className="block font-semibold">WhatsApp</span>
                <span className="block text-sm text-slate-600">Chat with us on WhatsApp</span>
              </span>
            </a>
            <div className="rounded-xl border border-slate-200 p-6">
              <h3 className="flex items-center gap-2 font-semibold">
                <Icon name="clock" className="size-5 text-brand-700" /> Business Hours
              </h3>
              <ul className="mt-3 space-y-1 text-sm text-slate-600">
                {hours.map((h) => (
                  <li key={h}>{h}</li>
                ))}
                <li className="font-medium text-slate-800">{business.hours.emergency}</li>
              </ul>
            </div>
          </div>
        </div>
      </Container>
    </section>
  );
}
