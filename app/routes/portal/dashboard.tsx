import { MessageCircle } from "lucide-react";
import { requireClient } from "~/features/accounts/session.server";
import { whatsappLink } from "~/features/business/business";
import { ContactForm } from "~/features/contact/ContactForm";
import { handleContactForm } from "~/features/contact/contact-action.server";
import { pageTitle } from "~/features/site/meta";
import { useRootData } from "~/features/site/root-data";
import type { Route } from "./+types/dashboard";
import { usePortalData } from "./shell";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle("Dashboard", matches) }];

/** The "Need Help" form posts here: the same contact action as the public site. */
export async function action({ request, context }: Route.ActionArgs) {
  await requireClient(request, context);
  return handleContactForm(await request.formData(), request, context, "portal");
}

export async function clientAction({ request, serverAction }: Route.ClientActionArgs) {
  // Loaded only when a form is sent, so it costs the page's first load nothing.
  const { withContactFallback } = await import("~/features/contact/contact-client");
  return withContactFallback(request, serverAction);
}

export default function Dashboard() {
  const { client } = usePortalData();
  const { business } = useRootData();
  return (
    <div className="space-y-8 p-6 lg:p-10">
      <section className="rounded-2xl bg-gradient-to-r from-brand-700 to-brand-600 p-8 text-white">
        <h1 className="text-2xl font-bold">Welcome back, {client.name}!</h1>
        <p className="mt-2 text-brand-50">Here is what is happening with your services.</p>
      </section>

      <section
        aria-labelledby="need-help-heading"
        className="rounded-2xl border border-slate-200 bg-white p-6"
      >
        <h2 id="need-help-heading" className="text-lg font-bold">
          Need Help?
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          Write to us here or on WhatsApp: we answer within 24 hours.
        </p>
        <a
          href={whatsappLink(business)}
          target="_blank"
          rel="noopener noreferrer"
          className="mt-4 inline-flex items-center gap-2 font-semibold text-green-800 underline"
        >
          <MessageCircle aria-hidden="true" className="size-4" />
          Chat on WhatsApp
        </a>
        <div className="mt-4 max-w-2xl">
          <ContactForm business={business} source="portal" compact action="/client/dashboard" />
        </div>
      </section>
    </div>
  );
}
