/**
 * The profile page's forms answered on the server: profile information, change password, the
 * two-factor settings and the notification switches, told apart by the posted `intent`. The route
 * guards, then hands the form here.
 */
import { parseForm } from "~/ui/form";
import { ACCOUNT_MESSAGES, changePassword } from "./accounts.server";
import { updateClientProfile } from "./clients.server";
import type { AccountDeps } from "./deps.server";
import { changePasswordSchema, notificationPreferencesSchema, profileSchema } from "./forms";
import type { NotificationPreferences } from "./notification-preferences";
import { loadNotificationPreferences, saveNotificationPreferences } from "./notification-preferences.server";
import type { ProfileActionData } from "./profile";
import type { SessionUser } from "./session-user";
import { isTwoFactorIntent } from "./two-factor";
import { twoFactorAction } from "./two-factor.server";

/** The action's data, its status and (two-factor on or off replaces the session) cookies to forward. */
export interface ProfileAnswer {
  data: ProfileActionData;
  status: number;
  headers?: Headers;
}

const answer = (data: ProfileActionData, status = 200, headers?: Headers): ProfileAnswer => ({
  data,
  status,
  headers,
});

export async function profileAction(
  deps: AccountDeps,
  request: Request,
  user: SessionUser,
  values: Record<string, string>,
): Promise<ProfileAnswer> {
  if (isTwoFactorIntent(values.intent)) {
    const result = await twoFactorAction(deps, request, user, values.intent, values);
    return answer(
      { form: "twoFactor", notice: null, fieldErrors: {}, twoFactor: result.view },
      result.status,
      result.headers,
    );
  }
  if (values.intent === "profile") return saveProfile(deps, user, values);
  if (values.intent === "password") return updatePassword(deps, request, values);
  if (values.intent === "notifications") return saveNotifications(deps, user, values);
  return answer({ form: "profile", notice: null, fieldErrors: {} }, 400);
}

async function saveProfile(
  deps: AccountDeps,
  user: SessionUser,
  values: Record<string, string>,
): Promise<ProfileAnswer> {
  const parsed = parseForm(profileSchema, values);
  if (!parsed.ok) return answer({ form: "profile", notice: null, fieldErrors: parsed.fieldErrors }, 400);
  try {
    const saved = await updateClientProfile(deps.db, user.id, parsed.data);
    if (!saved) throw new Error("client record missing");
    return answer({
      form: "profile",
      notice: { tone: "success", text: ACCOUNT_MESSAGES.profileSaved },
      fieldErrors: {},
    });
  } catch (error) {
    deps.logger.error({ err: error }, "profile update failed");
    return answer(
      { form: "profile", notice: { tone: "error", text: ACCOUNT_MESSAGES.profileFailed }, fieldErrors: {} },
      500,
    );
  }
}

async function updatePassword(
  deps: AccountDeps,
  request: Request,
  values: Record<string, string>,
): Promise<ProfileAnswer> {
  const parsed = parseForm(changePasswordSchema, values);
  if (!parsed.ok) {
    const errors = parsed.fieldErrors;
    // The spec's alert for a mismatch: 'New passwords do not match'.
    const notice = errors.confirmPassword ? { tone: "error" as const, text: errors.confirmPassword } : null;
    return answer({ form: "password", notice, fieldErrors: errors }, 400);
  }
  const result = await changePassword(deps, request, parsed.data);
  if (!result.ok) {
    return answer(
      { form: "password", notice: { tone: "error", text: result.formError }, fieldErrors: {} },
      result.status,
    );
  }
  return answer({
    form: "password",
    notice: { tone: "success", text: ACCOUNT_MESSAGES.passwordUpdated },
    fieldErrors: {},
  });
}

/** The Notifications tab's switches as saved (the defaults until the client saves theirs). */
export async function profileNotifications(
  deps: AccountDeps,
  user: SessionUser,
): Promise<NotificationPreferences> {
  return loadNotificationPreferences(deps.db, user.id);
}

async function saveNotifications(
  deps: AccountDeps,
  user: SessionUser,
  values: Record<string, string>,
): Promise<ProfileAnswer> {
  const parsed = parseForm(notificationPreferencesSchema, values);
  if (!parsed.ok) {
    return answer({ form: "notifications", notice: null, fieldErrors: parsed.fieldErrors }, 400);
  }
  try {
    await saveNotificationPreferences(deps.db, user.id, parsed.data);
    return answer({
      form: "notifications",
      notice: { tone: "success", text: ACCOUNT_MESSAGES.notificationsSaved },
      fieldErrors: {},
      notifications: parsed.data,
    });
  } catch (error) {
    deps.logger.error({ err: error }, "notification preferences update failed");
    return answer(
      {
        form: "notifications",
        notice: { tone: "error", text: ACCOUNT_MESSAGES.notificationsFailed },
        fieldErrors: {},
      },
      500,
    );
  }
}
