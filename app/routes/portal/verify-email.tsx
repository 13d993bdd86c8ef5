import { data } from "react-router";
import { accountDeps } from "~/features/accounts/deps.server";
import { clearPendingVerification, pendingVerificationFor } from "~/features/accounts/session.server";
import { VerifyEmailPage } from "~/features/accounts/VerifyEmailPage";
import {
  type VerifyEmailAnswer,
  verificationState,
  verifyEmailAction,
} from "~/features/accounts/verify-email.server";
import { pageTitle } from "~/features/site/meta";
import type { Route } from "./+types/verify-email";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle("Verify Your Email", matches) }];

/** A confirmed address no longer needs the pending-verification cookie. */
async function answer(context: Route.LoaderArgs["context"], { state, status }: VerifyEmailAnswer) {
  if (!state.verified) return data(state, status);
  return data(state, { status, headers: { "Set-Cookie": await clearPendingVerification(context) } });
}

// Confirmation is detected on load…
export async function loader({ request, context }: Route.LoaderArgs) {
  const pending = await pendingVerificationFor(request, context);
  return answer(context, { state: await verificationState(accountDeps(context), pending), status: 200 });
}

// …and when 'I've Verified My Email' is pressed; 'Resend Email' sends a new link.
export async function action({ request, context }: Route.ActionArgs) {
  const values = Object.fromEntries(await request.formData());
  const whose = () => pendingVerificationFor(request, context);
  return answer(context, await verifyEmailAction(accountDeps(context), values, whose));
}

export default function VerifyEmail({ loaderData, actionData }: Route.ComponentProps) {
  return <VerifyEmailPage state={actionData ?? loaderData} />;
}
