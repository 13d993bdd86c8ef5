import { Link } from "react-router";
import { getCurrentUser } from "~/features/accounts/session.server";
import { PaymentThanksFacts } from "~/features/portal/PaymentThanks";
import { type AfterPayment, afterPayment } from "~/features/portal/payment-thank-you.server";
import { seo } from "~/features/site/seo";
import { emailLine, parseThankYouQuery } from "~/features/site/thank-you";
import { buttonClass } from "~/ui/button";
import { Container } from "~/ui/container";
import { Icon } from "~/ui/icon";
import type { Route } from "./+types/thank-you";

export async function loader({ request, context }: Route.LoaderArgs) {
  const query = parseThankYouQuery(new URL(request.url).searchParams);
  // After paying (issue 37, item 4): what was paid, read for the signed-in client's own order, never
  // from the query; and (ADR 0512) the job's details asked for at once.
  let paid: AfterPayment = { thanks: null, briefHref: null };
  if (query.type === "payment" && query.order_id) {
    const user = await getCurrentUser(request, context);
    if (user?.role === "client")
      paid = await afterPayment(context.runtime.database.db, user.id, query.order_id);
  }
  return { query, ...paid };
}

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({
    title: "Thank You",
    description: "Thank you for choosing us.",
    path: "/thank-you",
    matches,
    noindex: true,
  });

const NEXT_STEPS = [
  { title: "Verify your email", text: "Open the message we sent you and confirm your address." },
  { title: "Sign in to your portal", text: "Log in to see your dashboard, services and invoices." },
  { title: "Order your first service", text: "Pick a package and we start within 24 hours." },
];

export default function ThankYou({ loaderData }: Route.ComponentProps) {
  const { query, thanks } = loaderData;
  const line = emailLine(query);
  return (
    <Container className="max-w-2xl py-20 text-center">
      <Icon name="circle-check" className="mx-auto size-16 text-green-700" />
      <h1 className="mt-6 text-3xl font-bold tracking-tight sm:text-4xl">
        {query.name ? `Welcome, ${query.name}!` : "Thank You!"}
      </h1>
      <p className="mt-4 text-lg text-slate-600">
        {query.type === "registration"
          ? "Your account has been created."
          : query.type === "payment"
            ? (thanks?.sentence ?? "Your payment was successful. Your order is being processed.")
            : "Thank you for reaching out. We will get back to you within 24 hours."}
      </p>
      {line && (
        <p className="mt-2 text-slate-800">
          {line}
          {query.type === "registration" && (
            <>
              {" "}
              (<strong>{query.email}</strong>).
            </>
          )}
        </p>
      )}
      {thanks && <PaymentThanksFacts thanks={thanks} />}

      {query.type === "registration" && (
        <>
          <section
            aria-labelledby="next-heading"
            className="mt-10 rounded-2xl border border-slate-200 p-6 text-left"
          >
            <h2 id="next-heading" className="text-xl font-bold">
              What's Next
            </h2>
            <ol className="mt-4 space-y-4">
              {NEXT_STEPS.map((s, i) => (
                <li key={s.title} className="flex gap-3">
                  <span
                    aria-hidden="true"
                    className="grid size-7 shrink-0 place-items-center rounded-full bg-brand-600 text-sm font-bold text-white"
                  >
                    {i + 1}
                  </span>
                  <span>
                    <span className="block font-semibold">{s.title}</span>
                    <span className="block text-sm text-slate-600">{s.text}</span>
                  </span>
                </li>
              ))}
            </ol>
          </section>
          <Link to="/client/login" className={buttonClass("primary", "mt-8 px-6 py-3")}>
            Go to Login
          </Link>
        </>
      )}
      {loaderData.briefHref && (
        <section
          aria-labelledby="brief-prompt-heading"
          className="mt-8 rounded-2xl border border-amber-200 bg-amber-50 p-6 text-left"
        >
          <h2 id="brief-prompt-heading" className="text-xl font-bold">
            One more step
          </h2>
          <p className="mt-2 text-slate-800">
            A few questions about the job let us start without a back-and-forth.
          </p>
          <Link to={loaderData.briefHref} className={buttonClass("primary", "mt-4 px-6 py-3")}>
            Tell us about the job
          </Link>
        </section>
      )}
      {query.type === "payment" && (
        <div className="mt-8 flex flex-wrap justify-center gap-3">
          <Link to="/client/dashboard" className={buttonClass("primary", "px-6 py-3")}>
            View Dashboard
          </Link>
          {thanks ? (
            // The invoice of this payment as a PDF file (a download, not a page).
            <a href={thanks.pdfHref} className={buttonClass("secondary", "px-6 py-3")}>
              Download Invoice
            </a>
          ) : (
            <Link to="/client/invoices" className={buttonClass("secondary", "px-6 py-3")}>
              Download Invoice
            </Link>
          )}
        </div>
      )}
      {query.type === "other" && (
        <Link to="/" className={buttonClass("primary", "mt-8 px-6 py-3")}>
          Go Home
        </Link>
      )}
    </Container>
  );
}
