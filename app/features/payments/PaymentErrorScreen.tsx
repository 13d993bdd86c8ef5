import { useEffect, useState } from "react";
import { ButtonLink, buttonClass } from "~/ui/button";
import { Icon } from "~/ui/icon";
import { buildPaymentErrorRecord, newErrorId, storePaymentError } from "./payment-error";

/** The 'Payment System Error' screen (public-site.md §2 "Payment error screen"). */
export function PaymentErrorScreen({
  errorId,
  supportEmail,
  onRetry,
}: {
  errorId: string;
  supportEmail: string;
  onRetry: () => void;
}) {
  return (
    <div role="alert" className="mx-auto max-w-lg px-4 py-20 text-center">
      <Icon name="triangle-exclamation-point" className="mx-auto size-14 text-red-600" />
      <h1 className="mt-6 text-3xl font-bold">Payment System Error</h1>
      <p className="mt-4 text-slate-600">
        Something went wrong in the payment system. The error has been logged. If it keeps happening, contact
        support at{" "}
        <a href={`mailto:${supportEmail}`} className="font-semibold text-brand-700 underline">
          {supportEmail}
        </a>{" "}
        and quote the error ID below.
      </p>
      <p className="mt-4 text-sm">
        Error ID: <code className="rounded bg-slate-100 px-2 py-1 font-mono">{errorId}</code>
      </p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <button type="button" onClick={onRetry} className={buttonClass("primary")}>
          Try Again
        </button>
        <ButtonLink to="/client/services" variant="secondary">
          Back to Services
        </ButtonLink>
      </div>
    </div>
  );
}

function record(error: unknown, componentStack: string | null | undefined): string {
  const errorId = newErrorId();
  storePaymentError(
    window.localStorage,
    buildPaymentErrorRecord(error, componentStack, {
      errorId,
      now: new Date(),
      userAgent: navigator.userAgent,
      url: window.location.href,
    }),
  );
  return errorId;
}

/**
 * The screen as a React Router route's ErrorBoundary (the purchase route; stores the last error locally):
 * `export function ErrorBoundary({ error }) { return <PaymentRouteError error={error} … /> }`.
 */
export function PaymentRouteError({ error, supportEmail }: { error: unknown; supportEmail: string }) {
  const [errorId, setErrorId] = useState("…");
  useEffect(() => setErrorId(record(error, null)), [error]);
  return (
    <PaymentErrorScreen
      errorId={errorId}
      supportEmail={supportEmail}
      onRetry={() => window.location.reload()}
    />
  );
}
