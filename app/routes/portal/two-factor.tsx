/**
 * The second step of a sign-in for an account with two-factor on (docs/decisions/0702): after the right
 * password there is no session yet, only better-auth's short-lived challenge cookie. A 6-digit code from
 * the authenticator app, or a backup code (each works once), finishes the sign-in; then the login's
 * redirects apply (admins to the back office, clients to `redirectTo` or the dashboard).
 */
import { Form, Link, redirect, useNavigation } from "react-router";
import { AuthCard } from "~/features/accounts/AuthCard";
import { accountDeps } from "~/features/accounts/deps.server";
import { landingAfterSignIn } from "~/features/accounts/redirect";
import { forwardCookies, getCurrentUser, signInCookies } from "~/features/accounts/session.server";
import { twoFactorSignInSchema } from "~/features/accounts/two-factor";
import { pendingSignInUserId, verifySignInCode } from "~/features/accounts/two-factor.server";
import { pageTitle } from "~/features/site/meta";
import { Button } from "~/ui/button";
import { FormError, TextField } from "~/ui/field";
import { actionResponse, formErrors, formValues, parseForm } from "~/ui/form";
import type { Route } from "./+types/two-factor";

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: pageTitle("Two-Factor Authentication", matches) },
];

function loginAgain(request: Request, reason: "expired" | "retry"): string {
  const back = new URL(request.url).searchParams.get("redirectTo");
  return `/client/login?twoFactor=${reason}${back ? `&redirectTo=${encodeURIComponent(back)}` : ""}`;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await getCurrentUser(request, context);
  if (user) throw redirect(user.role === "admin" ? "/admin/dashboard" : "/client/dashboard");
  if (!(await pendingSignInUserId(accountDeps(context), request)))
    throw redirect(loginAgain(request, "expired"));
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const values = formValues(await request.formData());
  const parsed = parseForm(twoFactorSignInSchema, values);
  if (!parsed.ok) return actionResponse(parsed);
  const result = await verifySignInCode(accountDeps(context), request, parsed.data);
  if (result.ok) {
    return redirect(landingAfterSignIn(result.user.role, request.url), {
      headers: await signInCookies(request, context, result.user.id, result.cookies),
    });
  }
  if ("restart" in result) {
    return redirect(loginAgain(request, result.restart), { headers: forwardCookies(result.cookies) });
  }
  return actionResponse(result);
}

export default function TwoFactorStep({ actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const submitting = navigation.state === "submitting";
  const { alert, fieldErrors } = formErrors(actionData);
  return (
    <AuthCard
      title="Two-Factor Authentication"
      subtitle="Enter the 6-digit code from your authenticator app, or one of your backup codes."
    >
      <FormError message={alert} />
      <Form method="post" noValidate className="mt-4 space-y-4">
        <TextField
          label="Authentication code"
          name="code"
          autoComplete="one-time-code"
          autoCapitalize="none"
          spellCheck={false}
          required
          maxLength={64}
          error={fieldErrors.code}
          hint="Lost your phone? A backup code (like abcde-12345) works once."
        />
        <label className="flex items-center gap-2 text-sm text-slate-700">
          <input type="checkbox" name="trustDevice" className="size-4 rounded border-slate-300" />
          Trust this device for 30 days
        </label>
        <Button type="submit" className="w-full" disabled={submitting}>
          {submitting ? "Verifying..." : "Verify"}
        </Button>
      </Form>
      <p className="mt-4 text-center text-sm">
        <Link to="/client/login" className="font-semibold text-brand-700 underline">
          Back to sign in
        </Link>
      </p>
    </AuthCard>
  );
}
