import { data } from "react-router";
import { accountDeps } from "~/features/accounts/deps.server";
import { pendingVerificationFor } from "~/features/accounts/session.server";
import { VerifyEmailPage } from "~/features/accounts/VerifyEmailPage";
import {
  type VerifyEmailAnswer,
  verificationState,
  verifyEmailAction,
} from "~/features/accounts/verify-email.server";
import { pageTitle } from "~/features/site/meta";
import type { Route } from "./+types/verify-email";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle("Verify Your Email", matches) }];

/**
 * A confirmed address keeps the pending-verification cookie until the sign-in: the login form offers the
 * address from it (issue 37, item 13); the sign-in spends it.
 */
function answer({ state, status }: VerifyEmailAnswer) {
  return data(state, status);
}

// Confirmation is detected on load…
export async function loader({ request, context }: Route.LoaderArgs) {
  const pending = await pendingVerificationFor(request, context);
  return answer({ state: await verificationState(accountDeps(context), pending), status: 200 });
}

// …and when 'I've Verified My Email' is pressed; 'Resend Email' sends a new link.
export async function action({ request, context }: Route.ActionArgs) {
  const values = Object.fromEntries(await request.formData());
  const whose = () => pendingVerificationFor(request, context);
  return answer(await verifyEmailAction(accountDeps(context), values, whose));
}

export default function VerifyEmail({ loaderData, actionData }: Route.ComponentProps) {
  return <VerifyEmailPage state={actionData ?? loaderData} />;
}
