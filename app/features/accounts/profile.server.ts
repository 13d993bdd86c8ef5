/**
 * The profile page's forms answered on the server: profile information, change password, the
 * two-factor settings and the notification switches, told apart by the posted `intent`. The route
 * guards, then hands the form here.
 */
import { eq } from "drizzle-orm";
import { clients } from "~/db/schema";
import { type BuyerVatOutcome, confirmBuyerVat, unconfirmedSaved } from "~/features/tax/buyer-vat.server";
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

/** The action's result and (two-factor on or off replaces the session) the cookies to forward. */
export interface ProfileAnswer {
  result: ProfileActionData;
  headers?: Headers;
}

export async function profileAction(
  deps: AccountDeps,
  request: Request,
  user: SessionUser,
  values: Record<string, string>,
): Promise<ProfileAnswer> {
  if (isTwoFactorIntent(values.intent)) {
    const { result, headers } = await twoFactorAction(deps, request, user, values.intent, values);
    // The settings show their own messages from the view.
    return { result: { ...result, form: "twoFactor" }, headers };
  }
  if (values.intent === "profile") return saveProfile(deps, user, values);
  if (values.intent === "password") return updatePassword(deps, request, values);
  if (values.intent === "notifications") return saveNotifications(deps, user, values);
  return { result: { ok: false, status: 400, error: "", form: "profile" } };
}

async function saveProfile(
  deps: AccountDeps,
  user: SessionUser,
  values: Record<string, string>,
): Promise<ProfileAnswer> {
  const parsed = parseForm(profileSchema, values);
  if (!parsed.ok) return { result: { ...parsed, form: "profile" } };
  // A VAT number of another member state, for an EU seller: confirmed with VIES first (issue 40).
  const vat = await confirmProfileVat(deps, user.id, parsed.data);
  if (vat.kind === "refused") {
    return {
      result: {
        ok: false,
        status: 400,
        form: "profile",
        error: vat.error,
        fieldErrors: { taxId: vat.error },
        inFields: true,
      },
    };
  }
  try {
    const saved = await updateClientProfile(
      deps.db,
      user.id,
      parsed.data,
      vat.kind === "checked"
        ? { status: vat.status, number: vat.number, checkedAt: vat.checkedAt, requestId: vat.requestId }
        : parsed.data.taxId === undefined
          ? undefined
          : null,
    );
    if (!saved) throw new Error("client record missing");
    const message =
      vat.kind === "checked" && vat.status === "unconfirmed"
        ? unconfirmedSaved(vat.number)
        : ACCOUNT_MESSAGES.profileSaved;
    return { result: { ok: true, form: "profile", message } };
  } catch (error) {
    deps.logger.error({ err: error }, "profile update failed");
    return { result: { ok: false, status: 500, form: "profile", error: ACCOUNT_MESSAGES.profileFailed } };
  }
}

/** The VAT number's confirmation for a profile about to be saved, against what was confirmed before. */
async function confirmProfileVat(
  deps: AccountDeps,
  userId: string,
  profile: { taxId?: string; countryCode?: string },
): Promise<BuyerVatOutcome> {
  if (profile.taxId === undefined) return { kind: "not-asked" };
  const [previous] = await deps.db
    .select({
      countryCode: clients.countryCode,
      vatCheckedNumber: clients.vatCheckedNumber,
      vatStatus: clients.vatStatus,
      vatCheckedAt: clients.vatCheckedAt,
      vatRequestId: clients.vatRequestId,
    })
    .from(clients)
    .where(eq(clients.id, userId))
    .limit(1);
  return confirmBuyerVat(
    { mode: deps.config.tax.mode, vies: { url: deps.config.tax.viesUrl } },
    { taxId: profile.taxId, countryCode: profile.countryCode ?? previous?.countryCode },
    previous ?? { vatCheckedNumber: null, vatStatus: null, vatCheckedAt: null, vatRequestId: null },
  );
}

async function updatePassword(
  deps: AccountDeps,
  request: Request,
  values: Record<string, string>,
): Promise<ProfileAnswer> {
  const parsed = parseForm(changePasswordSchema, values);
  if (!parsed.ok) {
    const mismatch = parsed.fieldErrors.confirmPassword;
    // The spec's alert for a mismatch: 'New passwords do not match' (beside its field too).
    if (mismatch) return { result: { ...parsed, inFields: undefined, error: mismatch, form: "password" } };
    return { result: { ...parsed, form: "password" } };
  }
  const changed = await changePassword(deps, request, parsed.data);
  if (!changed.ok) return { result: { ...changed, form: "password" } };
  return { result: { ok: true, form: "password", message: ACCOUNT_MESSAGES.passwordUpdated } };
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
  if (!parsed.ok) return { result: { ...parsed, form: "notifications" } };
  try {
    await saveNotificationPreferences(deps.db, user.id, parsed.data);
    const message = ACCOUNT_MESSAGES.notificationsSaved;
    return { result: { ok: true, form: "notifications", message, notifications: parsed.data } };
  } catch (error) {
    deps.logger.error({ err: error }, "notification preferences update failed");
    const failed = ACCOUNT_MESSAGES.notificationsFailed;
    return { result: { ok: false, status: 500, form: "notifications", error: failed } };
  }
}
