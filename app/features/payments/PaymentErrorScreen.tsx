import { AlertTriangle } from "lucide-react";
import { Component, type ErrorInfo, type ReactNode, useEffect, useState } from "react";
import { Link } from "react-router";
import { buttonClass } from "~/ui/button";
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
      <AlertTriangle aria-hidden="true" className="mx-auto size-14 text-red-600" />
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
        <Link to="/client/services" className={buttonClass("secondary")}>
          Back to Services
        </Link>
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

interface BoundaryState {
  errorId: string | null;
}

/**
 * Wraps the payment area: a crash inside shows the error screen and stores the last error locally.
 * Try Again clears the error and reloads the page.
 */
export class PaymentErrorBoundary extends Component<
  { supportEmail: string; children: ReactNode },
  BoundaryState
> {
  state: BoundaryState = { errorId: null };

  static getDerivedStateFromError(): BoundaryState {
    return { errorId: "" };
  }

  componentDidCatch(error: unknown, info: ErrorInfo) {
    this.setState({ errorId: record(error, info.componentStack) });
  }

  render() {
    if (this.state.errorId === null) return this.props.children;
    return (
      <PaymentErrorScreen
        errorId={this.state.errorId || "…"}
        supportEmail={this.props.supportEmail}
        onRetry={() => {
          this.setState({ errorId: null });
          window.location.reload();
        }}
      />
    );
  }
}

/**
 * The same screen for a React Router route's ErrorBoundary export (e.g. the purchase and payment
 * routes): `export function ErrorBoundary({ error }) { return <PaymentRouteError error={error} … /> }`.
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
