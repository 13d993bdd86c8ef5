import { Form, Link, redirect, useNavigation } from "react-router";
import { AuthCard } from "~/features/accounts/AuthCard";
import { resetPassword } from "~/features/accounts/accounts.server";
import { accountDeps } from "~/features/accounts/deps.server";
import { resetPasswordSchema } from "~/features/accounts/forms";
import { ACCOUNT_MESSAGES } from "~/features/accounts/messages";
import { NewPasswordFields } from "~/features/accounts/NewPasswordFields";
import { pageTitle } from "~/features/site/meta";
import { Button } from "~/ui/button";
import { Alert, FormError } from "~/ui/field";
import { actionResponse, formErrors, formValues, parseForm } from "~/ui/form";
import { useFormErrors } from "~/ui/use-form-errors";
import type { Route } from "./+types/reset-password";

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: pageTitle("Choose a New Password", matches) },
];

/** The emailed link passes through better-auth, which lands here with ?token=… or ?error=INVALID_TOKEN. */
export function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const token = url.searchParams.get("token");
  return { token: url.searchParams.has("error") ? null : token };
}

export async function action({ request, context }: Route.ActionArgs) {
  const parsed = parseForm(resetPasswordSchema, formValues(await request.formData()));
  if (!parsed.ok) return actionResponse(parsed);
  const result = await resetPassword(accountDeps(context), parsed.data);
  if (result.ok) return redirect("/client/login?reset=true");
  return actionResponse(result);
}

/** The same rules in the browser, fetched when the form is first used (zod is not in the page's JS). */
const browserRules = () => import("~/features/accounts/forms").then((m) => m.resetPasswordSchema);

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const { alert, fieldErrors } = formErrors(actionData);
  const { errors, onFocus, onSubmit, clear } = useFormErrors(browserRules, fieldErrors);

  if (!loaderData.token) {
    return (
      <AuthCard title="Choose a New Password">
        <Alert tone="error">{ACCOUNT_MESSAGES.resetLinkInvalid}</Alert>
        <p className="mt-6 text-center text-sm">
          <Link to="/client/forgot-password" className="font-semibold text-brand-700 underline">
            Request a new link
          </Link>
        </p>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Choose a New Password">
      <FormError message={alert} />
      <Form method="post" noValidate className="mt-4 space-y-4" onFocus={onFocus} onSubmit={onSubmit}>
        <input type="hidden" name="token" value={loaderData.token} />
        <NewPasswordFields label="New Password" errors={errors} onEdit={(field) => clear(field)()} />
        <Button type="submit" className="w-full" disabled={navigation.state === "submitting"}>
          {navigation.state === "submitting" ? "Saving..." : "Set New Password"}
        </Button>
      </Form>
    </AuthCard>
  );
}
