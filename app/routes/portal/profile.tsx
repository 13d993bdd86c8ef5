import { redirect } from "react-router";
import { countryChoices } from "~/features/accounts/countries";
import { accountDeps } from "~/features/accounts/deps.server";
import type { ProfileActionData } from "~/features/accounts/profile";
import { profileAction, profileNotifications } from "~/features/accounts/profile.server";
import { forgetSignedIn, requireClient } from "~/features/accounts/session.server";
import { timeZoneGroups } from "~/features/accounts/time-zones";
import { twoFactorView } from "~/features/accounts/two-factor.server";
import { ProfilePage } from "~/features/portal/ProfilePage";
import { deleteOwnAccount, signedOutCookies } from "~/features/privacy/account-deletion.server";
import { deletionDeps } from "~/features/privacy/deletion-deps.server";
import { privacyTabData } from "~/features/privacy/privacy-tab.server";
import { pageTitle } from "~/features/site/meta";
import { actionResponse, formValues } from "~/ui/form";
import type { Route } from "./+types/profile";
import { usePortalData } from "./shell";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle("Profile", matches) }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireClient(request, context);
  // `?tab=security`, `?tab=notifications` and `?tab=privacy` open that tab without JavaScript.
  const asked = new URL(request.url).searchParams.get("tab");
  const tab = (["security", "notifications", "privacy"] as const).find((t) => t === asked) ?? null;
  const deps = accountDeps(context);
  const [twoFactor, notifications, privacy] = await Promise.all([
    twoFactorView(deps, user),
    profileNotifications(deps, user),
    privacyTabData(deps.db, user.id),
  ]);
  return { twoFactor, notifications, tab, privacy, timeZones: timeZoneGroups(), countries: countryChoices() };
}

/**
 * Profile information, change password, two-factor or notifications form: profile.server.ts answers.
 * "Delete my account" (Privacy tab, issue 25): signed out, on to the page that says it is done.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const { user } = await requireClient(request, context);
  const values = formValues(await request.formData());
  if (values.intent === "deleteAccount") {
    const deps = deletionDeps(context);
    const result = await deleteOwnAccount(deps, request, user, values);
    if (!result.ok) return actionResponse<ProfileActionData>({ ...result, form: "deleteAccount" });
    forgetSignedIn(context);
    throw redirect("/client/account-deleted", { headers: await signedOutCookies(deps) });
  }
  const answer = await profileAction(accountDeps(context), request, user, values);
  return actionResponse(answer.result, answer.headers);
}

export default function Profile({ loaderData, actionData }: Route.ComponentProps) {
  const { client } = usePortalData();
  return (
    <ProfilePage
      client={client}
      twoFactor={loaderData.twoFactor}
      notifications={loaderData.notifications}
      tab={loaderData.tab}
      privacy={loaderData.privacy}
      timeZones={loaderData.timeZones}
      countries={loaderData.countries}
      actionData={actionData}
    />
  );
}
