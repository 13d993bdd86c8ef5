/** The verify-email page (client-portal.md §2); verify-email.server.ts answers its loader and buttons. */

import { useEffect } from "react";
import { Form, Link, useNavigate, useNavigation } from "react-router";
import { Button } from "~/ui/button";
import { Alert } from "~/ui/field";
import { Icon } from "~/ui/icon";
import { AuthCard } from "./AuthCard";
import type { VerifyEmailState } from "./verify-email";

/** client-portal.md §2: after 2 seconds the confirmed user goes to the thank-you page. */
const VERIFIED_REDIRECT_DELAY_MS = 2000;

function thankYouUrl(email: string, name: string): string {
  const query = new URLSearchParams({ type: "registration", email, name });
  return `/thank-you?${query}`;
}

/** Waiting for the address to be confirmed, or confirmed (then onwards to the thank-you page). */
export function VerifyEmailPage({ state }: { state: VerifyEmailState }) {
  const navigate = useNavigate();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" ? navigation.formData?.get("intent") : null;

  useEffect(() => {
    if (!state.verified) return;
    const timer = window.setTimeout(
      () => navigate(thankYouUrl(state.email, state.name)),
      VERIFIED_REDIRECT_DELAY_MS,
    );
    return () => window.clearTimeout(timer);
  }, [state, navigate]);

  if (state.verified) {
    return (
      <AuthCard title="Email Verified!">
        <div className="flex flex-col items-center text-center">
          <Icon name="circle-check" className="size-12 text-green-700" />
          <p role="status" className="mt-4 text-slate-700">
            Thank you for confirming <strong className="wrap-anywhere">{state.email}</strong>. Taking you
            onwards…
          </p>
          <noscript>
            <meta httpEquiv="refresh" content={`2;url=${thankYouUrl(state.email, state.name)}`} />
          </noscript>
        </div>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Verify Your Email">
      <div className="flex flex-col items-center text-center">
        <Icon name="mail-check" className="size-12 text-brand-700" />
        {state.email ? (
          <p className="mt-4 text-slate-700">
            We sent a verification link to <strong>{state.email}</strong>. Open it to confirm your address,
            then come back here.
          </p>
        ) : (
          <p className="mt-4 text-slate-700">
            Open the verification link we emailed you to confirm your address.
          </p>
        )}
      </div>
      {state.message && (
        <div className="mt-4">
          <Alert tone={state.message.tone}>{state.message.text}</Alert>
        </div>
      )}
      <Form method="post" className="mt-6 space-y-3">
        <Button type="submit" name="intent" value="check" className="w-full" disabled={Boolean(busy)}>
          {busy === "check" ? "Checking..." : "I've Verified My Email"}
        </Button>
        <Button
          type="submit"
          name="intent"
          value="resend"
          variant="secondary"
          className="w-full"
          disabled={Boolean(busy)}
        >
          {busy === "resend" ? "Sending..." : "Resend Email"}
        </Button>
      </Form>
      <p className="mt-6 text-center text-sm text-slate-600">
        Already verified?{" "}
        <Link to="/client/login" className="font-semibold text-brand-700 underline">
          Sign in
        </Link>
      </p>
    </AuthCard>
  );
}
