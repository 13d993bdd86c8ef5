import { Link } from "react-router";
import { LegalPage } from "~/features/legal/LegalPage";
import { useRootData } from "~/features/site/root-data";
import { seo } from "~/features/site/seo";
import type { Route } from "./+types/terms";

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({
    title: "Terms of Service",
    description: "The terms that apply when you use our website and client portal and buy our IT services.",
    path: "/terms",
    matches,
  });

export default function Terms() {
  const { business } = useRootData();
  return (
    <LegalPage title="Terms of Service" updated="March 1, 2025">
      <p>
        These terms apply to the website, the client portal and the IT services provided by{" "}
        {business.legalName}, {business.address} ("we", "us"). By creating an account or ordering a service
        you accept them.
      </p>
      <h2>Services</h2>
      <p>
        Each service is described on its page, with the package, price and what is included. Custom work is
        described in the quote we send you. Delivery times (for example 24-48 hours for basic migrations of up
        to 10 accounts, 3-5 business days for larger ones) are good-faith estimates that depend on your
        systems and on timely access.
      </p>
      <h2>Your responsibilities</h2>
      <ul>
        <li>
          Give us accurate information and the access the work needs (admin accounts, DNS, hosting panel).
        </li>
        <li>Make sure you have the right to let us access the systems and data involved.</li>
        <li>
          Keep a backup of critical data before a migration begins, unless a backup is part of the service.
        </li>
        <li>Change shared credentials once the work is complete.</li>
      </ul>
      <h2>Prices and payment</h2>
      <p>
        Prices are set in US dollars; amounts shown in other currencies are converted for convenience. The
        amount charged is the one on your order summary. Orders are paid in advance through our payment
        provider, and an invoice is issued for every order. Third-party costs (licences, paid certificates,
        backup storage) are yours unless stated otherwise.
      </p>
      <h2>Per-incident support</h2>
      <p>
        An incident is one problem with one cause. Each incident includes 7 days of follow-up on the same
        problem. Emergency support 24/7 is available to existing clients.
      </p>
      <h2>Cancellations and refunds</h2>
      <p>
        You may cancel an order before work starts for a full refund. Once work has started, we refund the
        part not yet delivered. If we cannot deliver what was ordered, we refund you in full.
      </p>
      <h2>Confidentiality</h2>
      <p>
        We treat everything we see in your systems as confidential and use it only to deliver the service. Our{" "}
        <Link to="/privacy">Privacy Policy</Link> explains how we handle personal data.
      </p>
      <h2>Liability</h2>
      <p>
        We carry out every job with professional care. To the extent the law allows, our liability for any
        order is limited to the amount paid for it, and we are not liable for indirect losses or for failures
        of third-party platforms (email providers, cloud suites, hosting companies, certificate authorities).
      </p>
      <h2>Accounts</h2>
      <p>
        Keep your password secret; you are responsible for activity in your account. We may suspend accounts
        used fraudulently or to harm others.
      </p>
      <h2>Changes and contact</h2>
      <p>
        We may update these terms; the version on this page applies to new orders. Questions:{" "}
        <a href={`mailto:${business.email}`}>{business.email}</a>, {business.phone}.
      </p>
    </LegalPage>
  );
}
