import { Form, Link, redirect, useNavigation } from "react-router";
import { AuthCard } from "~/features/accounts/AuthCard";
import { signIn } from "~/features/accounts/accounts.server";
import { accountDeps } from "~/features/accounts/deps.server";
import { loginSchema } from "~/features/accounts/forms";
import { ACCOUNT_MESSAGES } from "~/features/accounts/messages";
import { landingAfterSignIn } from "~/features/accounts/redirect";
import {
  clearPendingVerification,
  confirmedAddressOfThisBrowser,
  forwardCookies,
  getCurrentUser,
  readPendingVerification,
  setPendingVerification,
  signInCookies,
} from "~/features/accounts/session.server";
import { TWO_FACTOR_MESSAGES } from "~/features/accounts/two-factor";
import { seo } from "~/features/site/seo";
import { Button } from "~/ui/button";
import { Alert, EmailField, FormError, PasswordField } from "~/ui/field";
import { actionResponse, formErrors, formValues, parseForm } from "~/ui/form";
import { useFormErrors } from "~/ui/use-form-errors";
import type { Route } from "./+types/login";

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({
    title: "Client Login",
    description: "Sign in to your client portal to see your services, orders and invoices, and pay online.",
    path: "/client/login",
    matches,
  });

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await getCurrentUser(request, context);
  if (user) throw redirect(user.role === "admin" ? "/admin/dashboard" : "/client/dashboard");
  const url = new URL(request.url);
  const linkError = url.searchParams.has("error");
  // The address this browser registered with, once confirmed (never from the query).
  const email = await confirmedAddressOfThisBrowser(request, context);
  let notice: string | null = null;
  if (url.searchParams.get("verified") === "true") {
    notice = linkError ? ACCOUNT_MESSAGES.verificationLinkInvalid : ACCOUNT_MESSAGES.verifiedAlert;
  } else if (url.searchParams.get("reset") === "true") {
    notice = ACCOUNT_MESSAGES.resetDone;
  }
  // Sent back from the two-factor step (/client/two-factor): it expired, or too many wrong codes.
  const twoFactor = url.searchParams.get("twoFactor");
  if (twoFactor === "expired" || twoFactor === "retry") {
    const text =
      twoFactor === "expired" ? TWO_FACTOR_MESSAGES.challengeExpired : TWO_FACTOR_MESSAGES.tooManyWrongCodes;
    return { notice: text, noticeTone: "error" as const, email };
  }
  return { notice, noticeTone: linkError ? ("error" as const) : ("success" as const), email };
}

export async function action({ request, context }: Route.ActionArgs) {
  const values = formValues(await request.formData());
  const parsed = parseForm(loginSchema, values);
  const echo = { email: values.email ?? "" };
  if (!parsed.ok) return actionResponse({ ...parsed, values: echo });
  const result = await signIn(accountDeps(context), request, parsed.data);
  // Signed in: the pending-verification cookie (which offered the address) is spent.
  const spend = async (headers: Headers) => {
    if (await readPendingVerification(request, context))
      headers.append("Set-Cookie", await clearPendingVerification(context));
    return headers;
  };
  if (result.ok && "twoFactor" in result) {
    const back = new URL(request.url).searchParams.get("redirectTo");
    const next = back ? `/client/two-factor?redirectTo=${encodeURIComponent(back)}` : "/client/two-factor";
    return redirect(next, { headers: await spend(forwardCookies(result.cookies)) });
  }
  if (result.ok) {
    return redirect(landingAfterSignIn(result.user.role, request.url), {
      headers: await spend(await signInCookies(request, context, result.user.id, result.cookies)),
    });
  }
  if ("unverified" in result) {
    return redirect("/client/verify-email", {
      headers: { "Set-Cookie": await setPendingVerification(context, result.unverified) },
    });
  }
  return actionResponse({ ...result, values: echo });
}

/** The same rules in the browser, fetched when the form is first used (zod is not in the page's JS). */
const browserRules = () => import("~/features/accounts/forms").then((m) => m.loginSchema);

export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const { alert, fieldErrors } = formErrors(actionData);
  const { errors, onFocus, onSubmit, clear } = useFormErrors(browserRules, fieldErrors);
  const submitting = navigation.state === "submitting";

  return (
    <AuthCard
      title="Client Login"
      subtitle={
        <>
          New here?{" "}
          <Link to="/client/register" className="font-semibold text-brand-700 underline">
            Create an account
          </Link>
        </>
      }
    >
      <div className="space-y-3">
        {loaderData.notice && <Alert tone={loaderData.noticeTone}>{loaderData.notice}</Alert>}
        <FormError message={alert} />
      </div>
      <Form method="post" noValidate className="mt-4 space-y-4" onFocus={onFocus} onSubmit={onSubmit}>
        <EmailField
          defaultValue={actionData?.values.email ?? loaderData.email ?? undefined}
          error={errors.email}
          onChange={clear("email")}
        />
        <PasswordField
          label="Password"
          name="password"
          autoComplete="current-password"
          required
          error={errors.password}
          onChange={clear("password")}
        />
        <div className="flex items-center justify-between">
          <label className="flex items-center gap-2 text-sm text-slate-700">
            <input type="checkbox" name="rememberMe" className="size-4 rounded border-slate-300" />
            Remember me
          </label>
          <Link to="/client/forgot-password" className="text-sm font-semibold text-brand-700 underline">
            Forgot your password?
          </Link>
        </div>
        <Button type="submit" className="w-full" disabled={submitting}>
          {submitting ? "Signing In..." : "Sign In"}
        </Button>
      </Form>
    </AuthCard>
  );
}
