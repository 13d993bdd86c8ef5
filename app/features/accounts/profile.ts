/** What the profile page's action answers: made in profile.server.ts, read by the profile page's tabs (portal/ProfilePage.tsx). */
import type { FieldErrors } from "~/ui/form";
import type { NotificationPreferences } from "./notification-preferences";
import type { TwoFactorView } from "./two-factor";

export interface ProfileNotice {
  tone: "success" | "error";
  text: string;
}

export interface ProfileActionData {
  /** Which of the page's forms was posted: its alert and field messages are shown beside it. */
  form: "profile" | "password" | "twoFactor" | "notifications" | "deleteAccount";
  notice: ProfileNotice | null;
  fieldErrors: FieldErrors;
  /** The two-factor settings after one of their forms was posted. */
  twoFactor?: TwoFactorView;
  /** The Notifications switches as saved. */
  notifications?: NotificationPreferences;
}
