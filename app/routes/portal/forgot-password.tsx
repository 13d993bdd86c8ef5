import { Form, Link, useNavigation } from "react-router";
import { AuthCard } from "~/features/accounts/AuthCard";
import { requestPasswordReset } from "~/features/accounts/accounts.server";
import { accountDeps } from "~/features/accounts/deps.server";
import { forgotPasswordSchema } from "~/features/accounts/forms";
import { pageTitle } from "~/features/site/meta";
import { Button } from "~/ui/button";
import { Alert, EmailField, FormError } from "~/ui/field";
import { actionResponse, formErrors, formValues, parseForm } from "~/ui/form";
import { useFormErrors } from "~/ui/use-form-errors";
import type { Route } from "./+types/forgot-password";

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: pageTitle("Forgot Your Password?", matches) },
];

export async function action({ request, context }: Route.ActionArgs) {
  const parsed = parseForm(forgotPasswordSchema, formValues(await request.formData()));
  if (!parsed.ok) return actionResponse(parsed);
  // The same answer whether or not the address has an account.
  return actionResponse(await requestPasswordReset(accountDeps(context), parsed.data.email));
}

/** The same rule in the browser, fetched when the form is first used (zod is not in the page's JS). */
const browserRules = () => import("~/features/accounts/forms").then((m) => m.forgotPasswordSchema);

export default function ForgotPassword({ actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const { alert, fieldErrors, message } = formErrors(actionData);
  const { errors, onFocus, onSubmit, clear } = useFormErrors(browserRules, fieldErrors);
  return (
    <AuthCard
      title="Forgot Your Password?"
      subtitle="Enter the email address of your account and we will send you a link to choose a new password."
    >
      {message ? (
        <Alert tone="success">{message}</Alert>
      ) : (
        <Form method="post" noValidate className="space-y-4" onFocus={onFocus} onSubmit={onSubmit}>
          <FormError message={alert} />
          <EmailField error={errors.email} onChange={clear("email")} />
          <Button type="submit" className="w-full" disabled={navigation.state === "submitting"}>
            {navigation.state === "submitting" ? "Sending..." : "Send Reset Link"}
          </Button>
        </Form>
      )}
      <p className="mt-6 text-center text-sm text-slate-600">
        <Link to="/client/login" className="font-semibold text-brand-700 underline">
          Back to login
        </Link>
      </p>
    </AuthCard>
  );
}
