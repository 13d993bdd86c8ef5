import { CheckCircle2, MailCheck } from "lucide-react";
import { useEffect } from "react";
import { data, Form, Link, useNavigate, useNavigation } from "react-router";
import { z } from "zod";
import { AuthCard } from "~/features/accounts/AuthCard";
import {
  checkVerification,
  resendVerification,
  type VerificationStatus,
} from "~/features/accounts/accounts.server";
import { accountDeps } from "~/features/accounts/deps.server";
import { ACCOUNT_MESSAGES } from "~/features/accounts/messages";
import {
  clearPendingVerification,
  getSignedIn,
  type PendingVerification,
  readPendingVerification,
} from "~/features/accounts/session.server";
import { pageTitle } from "~/features/site/meta";
import { Button } from "~/ui/button";
import { Alert } from "~/ui/field";
import type { Route } from "./+types/verify-email";

/** client-portal.md §2: after 2 seconds the confirmed user goes to the thank-you page. */
const VERIFIED_REDIRECT_DELAY_MS = 2000;

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle("Verify Your Email", matches) }];

/** Whose address we are waiting for: the pending cookie set at registration, or an unverified session. */
async function pendingFor(
  request: Request,
  context: Route.LoaderArgs["context"],
): Promise<PendingVerification | null> {
  const pending = await readPendingVerification(request, context);
  if (pending) return pending;
  const signedIn = await getSignedIn(request, context);
  return signedIn ? { email: signedIn.user.email, name: signedIn.user.name } : null;
}

async function verifiedResponse(
  context: Route.LoaderArgs["context"],
  status: VerificationStatus & { verified: true },
) {
  return data(
    { verified: true as const, email: status.email, name: status.name, message: null },
    { headers: { "Set-Cookie": await clearPendingVerification(context) } },
  );
}

// Confirmation is detected on load…
export async function loader({ request, context }: Route.LoaderArgs) {
  const pending = await pendingFor(request, context);
  if (pending) {
    const status = await checkVerification(accountDeps(context), pending.email);
    if (status.verified) return verifiedResponse(context, status);
  }
  return data({
    verified: false as const,
    email: pending?.email ?? null,
    name: pending?.name ?? "",
    message: null,
  });
}

const intentSchema = z.object({ intent: z.enum(["check", "resend"]) });

// …and when 'I've Verified My Email' is pressed; 'Resend Email' sends a new link.
export async function action({ request, context }: Route.ActionArgs) {
  const parsed = intentSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) return data({ verified: false as const, email: null, name: "", message: null }, 400);
  const pending = await pendingFor(request, context);
  const email = pending?.email ?? null;
  const name = pending?.name ?? "";
  if (parsed.data.intent === "resend") {
    const message = await resendVerification(accountDeps(context), email);
    const tone = message === ACCOUNT_MESSAGES.resendSent ? ("success" as const) : ("error" as const);
    return data({ verified: false as const, email, name, message: { tone, text: message } });
  }
  try {
    const status = email
      ? await checkVerification(accountDeps(context), email)
      : { verified: false as const };
    if (status.verified) return verifiedResponse(context, status);
    return data({
      verified: false as const,
      email,
      name,
      message: { tone: "error" as const, text: ACCOUNT_MESSAGES.notYetVerified },
    });
  } catch (error) {
    context.logger.error({ err: error }, "verification check failed");
    return data({
      verified: false as const,
      email,
      name,
      message: { tone: "error" as const, text: ACCOUNT_MESSAGES.checkFailed },
    });
  }
}

function thankYouUrl(email: string, name: string): string {
  const query = new URLSearchParams({ type: "registration", email, name });
  return `/thank-you?${query}`;
}

export default function VerifyEmail({ loaderData, actionData }: Route.ComponentProps) {
  const state = actionData ?? loaderData;
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
          <CheckCircle2 aria-hidden="true" className="size-12 text-green-700" />
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
        <MailCheck aria-hidden="true" className="size-12 text-brand-700" />
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
