/** What the profile page's action answers: made in profile.server.ts, read by the profile page's tabs (portal/ProfilePage.tsx). */
import { type ActionResult, formErrors } from "~/ui/form";
import type { NotificationPreferences } from "./notification-preferences";
import type { TwoFactorView } from "./two-factor";

export interface ProfileNotice {
  tone: "success" | "error";
  text: string;
}

interface ProfileForm {
  /** Which of the page's forms was posted: its alert and field messages are shown beside it. */
  form: "profile" | "password" | "twoFactor" | "notifications" | "deleteAccount";
  /** The two-factor settings after one of their forms was posted. */
  twoFactor?: TwoFactorView;
  /** The Notifications switches as saved. */
  notifications?: NotificationPreferences;
}

/** The one form answer (ADR 0011), saying which of the page's forms it is for. */
export type ProfileActionData = ActionResult<ProfileForm, ProfileForm>;

/** A form's alert: a success's message, or a refusal the fields do not already show. */
export function profileNotice(result: ProfileActionData | undefined): ProfileNotice | null {
  const { alert, message } = formErrors(result);
  if (message) return { tone: "success", text: message };
  return alert ? { tone: "error", text: alert } : null;
}
