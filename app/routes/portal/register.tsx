import { Form, Link, redirect, useNavigation } from "react-router";
import { AuthCard } from "~/features/accounts/AuthCard";
import { signUp } from "~/features/accounts/accounts.server";
import { accountDeps } from "~/features/accounts/deps.server";
import { registerSchema } from "~/features/accounts/forms";
import { NewPasswordFields } from "~/features/accounts/NewPasswordFields";
import { getCurrentUser, safeRedirectPath, setPendingVerification } from "~/features/accounts/session.server";
import { seo } from "~/features/site/seo";
import { Button } from "~/ui/button";
import { EmailField, FormError, TextField } from "~/ui/field";
import { actionResponse, formErrors, formValues, parseForm } from "~/ui/form";
import { useFormErrors } from "~/ui/use-form-errors";
import type { Route } from "./+types/register";

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({
    title: "Create Your Account",
    description:
      "Create a client account to order IT services, follow your orders and pay your invoices online.",
    path: "/client/register",
    matches,
  });

export async function loader({ request, context }: Route.LoaderArgs) {
  if (await getCurrentUser(request, context)) throw redirect("/client/dashboard");
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const values = formValues(await request.formData());
  const parsed = parseForm(registerSchema, values);
  const echo = { name: values.name ?? "", email: values.email ?? "" };
  if (!parsed.ok) return actionResponse({ ...parsed, values: echo });
  // From the purchase page's 'create an account' link: the verification link leads back there.
  const returnTo = safeRedirectPath(new URL(request.url).searchParams.get("redirectTo"), "") || null;
  const result = await signUp(accountDeps(context), request, parsed.data, returnTo);
  if (!result.ok) return actionResponse({ ...result, values: echo });
  const cookie = await setPendingVerification(context, { email: parsed.data.email, name: parsed.data.name });
  return redirect("/client/verify-email", { headers: { "Set-Cookie": cookie } });
}

/** The same rules in the browser, fetched when the form is first used (zod is not in the page's JS). */
const browserRules = () => import("~/features/accounts/forms").then((m) => m.registerSchema);

export default function Register({ actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const { alert, fieldErrors } = formErrors(actionData);
  const { errors, onFocus, onSubmit, clear } = useFormErrors(browserRules, fieldErrors);
  const submitting = navigation.state === "submitting";

  return (
    <AuthCard
      title="Create Your Account"
      subtitle={
        <>
          Already have an account?{" "}
          <Link to="/client/login" className="font-semibold text-brand-700 underline">
            Sign in
          </Link>
        </>
      }
    >
      <FormError message={alert} />
      <Form method="post" noValidate className="mt-4 space-y-4" onFocus={onFocus} onSubmit={onSubmit}>
        <TextField
          label="Full Name"
          name="name"
          autoComplete="name"
          required
          defaultValue={actionData?.values.name}
          error={errors.name}
          onChange={clear("name")}
        />
        <EmailField defaultValue={actionData?.values.email} error={errors.email} onChange={clear("email")} />
        <NewPasswordFields label="Password" errors={errors} onEdit={(field) => clear(field)()} />
        <Button type="submit" className="w-full" disabled={submitting}>
          {submitting ? "Creating Account..." : "Create Account"}
        </Button>
      </Form>
    </AuthCard>
  );
}
