import { LegalPage } from "~/features/legal/LegalPage";
import { useRootData } from "~/features/site/root-data";
import { seo } from "~/features/site/seo";
import type { Route } from "./+types/privacy";

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({
    title: "Privacy Policy",
    description:
      "How we collect, use and protect personal data when you use our website, client portal and IT services.",
    path: "/privacy",
    matches,
  });

/** How long tax documents are kept after an account's deletion (RETENTION_YEARS, ADR 0520). */
export function loader({ context }: Route.LoaderArgs) {
  return { retentionYears: context.runtime.config.retentionYears };
}

export default function Privacy({ loaderData }: Route.ComponentProps) {
  const { business } = useRootData();
  const years = loaderData.retentionYears;
  return (
    <LegalPage title="Privacy Policy" updated="November 24, 2026">
      <p>
        {business.legalName} ("we", "us") provides IT services such as email migration, email security, SSL
        setup, cloud suite management, data migration, hosting support and backup setup. This policy explains
        what personal data we collect through this website and client portal, why, and what rights you have.
      </p>
      <h2>Who is responsible</h2>
      <p>
        The controller of your data is {business.legalName}, {business.address}. Contact us about privacy at{" "}
        <a href={`mailto:${business.email}`}>{business.email}</a> or {business.phone}.
      </p>
      <h2>What we collect</h2>
      <ul>
        <li>Contact messages: your name, email address, subject and message, so we can answer you.</li>
        <li>
          Client accounts: name, email, phone and company, your password (stored only as a secure hash), and
          your currency preference.
        </li>
        <li>
          Orders and invoices: the services you buy, amounts, currency and payment status. Card details are
          handled by our payment provider and never reach our servers.
        </li>
        <li>
          Technical data: IP address, browser type and request logs, kept to run and secure the site; your
          approximate country, to show prices in your currency.
        </li>
        <li>
          Local storage in your browser: whether you have seen the chat assistant, and details of a payment
          error if one occurs, so support can help. This stays on your device.
        </li>
      </ul>
      <h2>Project access and credentials</h2>
      <p>
        To deliver a service we may need access to your mailboxes, DNS, hosting panel or cloud tenant. We use
        such credentials only for the agreed work, never store them longer than the project requires, and
        recommend that you change them once the work is complete. Data we see while migrating or fixing your
        systems is never used for any other purpose.
      </p>
      <h2>Why we use your data</h2>
      <ul>
        <li>To perform our contract with you: quotes, orders, delivery, invoices and support.</li>
        <li>To meet legal obligations, such as keeping accounting records.</li>
        <li>For our legitimate interests: securing the site, preventing fraud and improving our services.</li>
      </ul>
      <p>
        We do not sell your data, and we do not use advertising trackers. The chat assistant runs in your
        browser and sends nothing to a server.
      </p>
      <h2>Who we share it with</h2>
      <p>
        Only with processors that help us run the business, under contract: our hosting provider, our email
        delivery provider and our payment provider. Some may process data outside your country; where they do,
        appropriate safeguards apply.
      </p>
      <h2>How long we keep it</h2>
      <p>
        Contact messages for up to two years; account data while your account is active; server logs for up to
        30 days. Invoices, credit notes and the quotes we sent, with the buyer details printed on them (name,
        email, company, address, tax ID, phone), and the orders they bill are kept for {years} years, because
        tax and accounting law requires it, also after you delete your account.
      </p>
      <h2>Deleting your account</h2>
      <p>
        When you delete your account (or ask us to), we sign you out everywhere and, at once, delete your
        password, two-factor secrets, preferences, notifications, the files attached to your orders' messages,
        the messages you sent us through the contact form and your newsletter subscription. Your name, email,
        phone and company on the account are replaced with a placeholder; where we keep your orders' messages
        and briefs (the record of the work), your name, email and phone are removed from them. Unpaid pending
        orders are cancelled. We keep only the documents above, for {years} years, as issued. We send a last
        confirmation to your address and do not keep it after sending. You may register again with the same
        address as a new client.
      </p>
      <h2>Your rights</h2>
      <p>
        You may ask for access to, correction or deletion of your data, restrict or object to its use, and ask
        for a copy in a portable format. Clients can do both themselves, in the Privacy tab of their profile:
        "Download my data" and "Delete my account". Or write to{" "}
        <a href={`mailto:${business.email}`}>{business.email}</a>: we answer within one month. You may also
        complain to your data protection authority.
      </p>
      <h2>Security</h2>
      <p>
        The site uses HTTPS everywhere, passwords are hashed, sessions are stored securely, and access to
        client data is limited to the account it belongs to.
      </p>
      <h2>Changes</h2>
      <p>We will post any change to this policy on this page with a new date.</p>
    </LegalPage>
  );
}
