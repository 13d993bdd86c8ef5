/**
 * The profile page (client-portal.md, Profile): the portal composes the tabs of the features that own
 * their subjects: profile information, security (password, two-factor) and notification switches from
 * accounts, privacy (data export, deletion) from privacy. Plain forms posted to the page's action
 * (profile.server.ts, and account-deletion.server.ts for the deletion), told apart by their `intent`.
 */
import { NotificationsTab } from "~/features/accounts/NotificationsTab";
import type { NotificationPreferences } from "~/features/accounts/notification-preferences";
import { type ProfileClient, ProfileInformationTab } from "~/features/accounts/ProfileInformationTab";
import type { ProfileActionData } from "~/features/accounts/profile";
import { SecurityTab } from "~/features/accounts/SecurityTab";
import type { TimeZoneGroup } from "~/features/accounts/time-zones";
import type { TwoFactorView } from "~/features/accounts/two-factor";
import type { PrivacyTabData } from "~/features/privacy/account-deletion";
import { PrivacyTab } from "~/features/privacy/PrivacyTab";
import { cardClass } from "~/ui/card-class";
import { Tabs } from "~/ui/tabs";

/** The page: Profile Information, Security, Notifications and Privacy tabs; `?tab=security` opens Security. */
export function ProfilePage({
  client,
  twoFactor,
  notifications,
  tab,
  privacy,
  timeZones,
  countries,
  actionData,
}: {
  client: ProfileClient;
  /** The two-factor settings as the loader found them. */
  twoFactor: TwoFactorView;
  /** The notification switches as saved. */
  notifications: NotificationPreferences;
  tab: "security" | "notifications" | "privacy" | null;
  /** Exports left today and what would refuse a deletion, shown before the Privacy tab's forms. */
  privacy: PrivacyTabData;
  timeZones: TimeZoneGroup[];
  countries: Array<{ code: string; name: string }>;
  actionData: ProfileActionData | undefined;
}) {
  const initial =
    actionData?.form === "password" || actionData?.form === "twoFactor" || tab === "security"
      ? "security"
      : actionData?.form === "notifications" || tab === "notifications"
        ? "notifications"
        : tab === "privacy" || actionData?.form === "deleteAccount"
          ? "privacy"
          : "profile";
  return (
    <div className="p-6 lg:p-10">
      <h1 className="text-2xl font-bold">Profile</h1>
      <div className={cardClass("mt-6 p-6")}>
        <Tabs
          label="Profile settings"
          initial={initial}
          tabs={[
            {
              id: "profile",
              label: "Profile Information",
              content: (
                <ProfileInformationTab
                  client={client}
                  timeZones={timeZones}
                  countries={countries}
                  result={actionData}
                />
              ),
            },
            {
              id: "security",
              label: "Security",
              content: <SecurityTab twoFactor={twoFactor} result={actionData} />,
            },
            {
              id: "notifications",
              label: "Notifications",
              content: <NotificationsTab saved={notifications} result={actionData} />,
            },
            {
              id: "privacy",
              label: "Privacy",
              content: (
                <PrivacyTab twoFactorOn={twoFactor.status === "on"} privacy={privacy} result={actionData} />
              ),
            },
          ]}
        />
      </div>
    </div>
  );
}
