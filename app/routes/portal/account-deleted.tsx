import { useRootData } from "~/features/site/root-data";
import { seo } from "~/features/site/seo";
import { buttonClass } from "~/ui/button";
import { Container } from "~/ui/container";
import { Icon } from "~/ui/icon";
import type { Route } from "./+types/account-deleted";

/** Where "Delete my account" leads once done (issue 25): signed out, saying what happened. */
export const meta: Route.MetaFunction = ({ matches }) =>
  seo({
    title: "Account deleted",
    description: "Your account has been deleted.",
    path: "/client/account-deleted",
    matches,
    noindex: true,
  });

export default function AccountDeleted() {
  const { business } = useRootData();
  return (
    <Container className="max-w-2xl py-16">
      <div className="space-y-4 text-center">
        <Icon name="circle-check" className="mx-auto size-12 text-green-700" />
        <h1 className="text-3xl font-bold">Your account has been deleted</h1>
        <p className="text-slate-700">
          You have been signed out everywhere. Your profile, preferences, notifications, the files on your
          orders and your contact messages are gone, and unpaid pending orders were cancelled. The invoices,
          credit notes and quotes we issued to you are kept as issued, as tax law requires: our{" "}
          <a href="/privacy" className="text-brand-700 underline">
            privacy policy
          </a>{" "}
          says for how long.
        </p>
        <p className="text-slate-700">
          A confirmation is on its way to your old address. You can register again with it at any time, as a
          new client. Questions:{" "}
          <a href={`mailto:${business.email}`} className="text-brand-700 underline">
            {business.email}
          </a>
          .
        </p>
        <p>
          <a href="/" className={buttonClass("primary")}>
            Back to the home page
          </a>
        </p>
      </div>
    </Container>
  );
}
