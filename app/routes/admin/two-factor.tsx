/**
 * An admin's two-factor settings, outside the back office frame: with ADMIN_REQUIRE_2FA, every other
 * /admin loader and action sends an admin without two-factor here (requireAdmin), so this page is the
 * only one that lets them through. Anyone but an admin gets 404, as everywhere in /admin.
 */
import { Form, Link } from "react-router";
import { accountDeps } from "~/features/accounts/deps.server";
import { TwoFactorSettings } from "~/features/accounts/TwoFactorSettings";
import { isTwoFactorIntent, TWO_FACTOR_MESSAGES } from "~/features/accounts/two-factor";
import { twoFactorAction, twoFactorView } from "~/features/accounts/two-factor.server";
import { requireAdmin } from "~/features/admin/route-helpers.server";
import { pageTitle } from "~/features/site/meta";
import { cardClass } from "~/ui/card-class";
import { Alert } from "~/ui/field";
import { actionResponse, formValues } from "~/ui/form";
import type { Route } from "./+types/two-factor";

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: pageTitle("Two-Factor Authentication", matches) },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = await requireAdmin(request, context, { allowWithoutTwoFactor: true });
  return {
    twoFactor: await twoFactorView(accountDeps(context), admin),
    required: context.runtime.config.adminRequireTwoFactor,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const admin = await requireAdmin(request, context, { allowWithoutTwoFactor: true });
  const values = formValues(await request.formData());
  if (!isTwoFactorIntent(values.intent)) {
    throw new Response("Unknown action", { status: 400 });
  }
  const { result, headers } = await twoFactorAction(
    accountDeps(context),
    request,
    admin,
    values.intent,
    values,
  );
  return actionResponse(result, headers);
}

export default function AdminTwoFactor({ loaderData, actionData }: Route.ComponentProps) {
  const view = actionData?.twoFactor ?? loaderData.twoFactor;
  return (
    <div className="mx-auto max-w-2xl p-6 lg:p-10">
      <h1 className="text-2xl font-bold">Two-Factor Authentication</h1>
      <div className={cardClass("mt-6 space-y-6 p-6")}>
        {loaderData.required && view.status !== "on" && (
          <Alert tone="info">{TWO_FACTOR_MESSAGES.adminRequired}</Alert>
        )}
        <TwoFactorSettings view={view} />
        <div className="flex flex-wrap items-center gap-4 border-t border-slate-200 pt-4 text-sm">
          {(view.status === "on" || !loaderData.required) && (
            <Link to="/admin/dashboard" className="font-semibold text-brand-700 underline">
              Continue to the back office
            </Link>
          )}
          <Form method="post" action="/client/sign-out">
            <button type="submit" className="font-semibold text-slate-700 underline">
              Sign Out
            </button>
          </Form>
        </div>
      </div>
    </div>
  );
}
