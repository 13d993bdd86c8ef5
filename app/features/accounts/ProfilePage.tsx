/**
 * The profile page (client-portal.md, Profile): profile information, the security tab (change password,
 * two-factor settings) and notification switches. Plain forms posted to the page's action
 * (profile.server.ts), told apart by their `intent`; timezone, language and notifications stay in this
 * browser.
 */
import { useEffect, useState } from "react";
import { Form, useNavigation } from "react-router";
import { Button } from "~/ui/button";
import { cardClass } from "~/ui/card-class";
import { Alert, PasswordField, TextField } from "~/ui/field";
import { Tabs } from "~/ui/tabs";
import {
  LANGUAGES,
  LOCAL_PREFERENCES_KEY,
  type LocalPreferences,
  NOTIFICATION_SWITCHES,
  parseLocalPreferences,
  TIMEZONES,
} from "./local-preferences";
import { NewPasswordFields } from "./NewPasswordFields";
import type { ProfileActionData } from "./profile";
import { TwoFactorSettings } from "./TwoFactorSettings";
import type { TwoFactorView } from "./two-factor";

/** The client record as the form shows it (the portal shell's loader reads it). */
export interface ProfileClient {
  name: string;
  email: string;
  phone: string;
  company: string;
}

function ProfileInformation({
  client,
  result,
}: {
  client: ProfileClient;
  result: ProfileActionData | undefined;
}) {
  const navigation = useNavigation();
  const mine = result?.form === "profile" ? result : undefined;
  const saving = navigation.formData?.get("intent") === "profile";
  return (
    <Form method="post" className="max-w-xl space-y-4" noValidate>
      <input type="hidden" name="intent" value="profile" />
      {mine?.notice && <Alert tone={mine.notice.tone}>{mine.notice.text}</Alert>}
      <TextField
        label="Full Name"
        name="name"
        defaultValue={client.name}
        autoComplete="name"
        required
        error={mine?.fieldErrors.name}
      />
      <TextField
        label="Email Address"
        name="email"
        type="email"
        value={client.email}
        readOnly
        aria-readonly="true"
        hint="Email cannot be changed"
      />
      <TextField
        label="Phone"
        name="phone"
        type="tel"
        defaultValue={client.phone}
        autoComplete="tel"
        error={mine?.fieldErrors.phone}
      />
      <TextField
        label="Company"
        name="company"
        defaultValue={client.company}
        autoComplete="organization"
        error={mine?.fieldErrors.company}
      />
      <LocalSettings />
      <Button type="submit" disabled={saving}>
        {saving ? "Saving..." : "Save Changes"}
      </Button>
    </Form>
  );
}

function useLocalPreferences(): [LocalPreferences | null, (next: LocalPreferences) => void] {
  const [prefs, setPrefs] = useState<LocalPreferences | null>(null);
  useEffect(() => setPrefs(parseLocalPreferences(window.localStorage.getItem(LOCAL_PREFERENCES_KEY))), []);
  const save = (next: LocalPreferences) => {
    setPrefs(next);
    window.localStorage.setItem(LOCAL_PREFERENCES_KEY, JSON.stringify(next));
  };
  return [prefs, save];
}

/** Timezone and language: kept in this browser only, as the spec says. */
function LocalSettings() {
  const [prefs, save] = useLocalPreferences();
  const selectClass = "mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2";
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <label className="block text-sm font-medium text-slate-800">
        Timezone
        <select
          className={selectClass}
          value={prefs?.timezone ?? "America/New_York"}
          disabled={!prefs}
          onChange={(e) => prefs && save({ ...prefs, timezone: e.currentTarget.value })}
        >
          {TIMEZONES.map((t) => (
            <option key={t.value} value={t.value}>
              {t.label}
            </option>
          ))}
        </select>
      </label>
      <label className="block text-sm font-medium text-slate-800">
        Language
        <select
          className={selectClass}
          value={prefs?.language ?? "en"}
          disabled={!prefs}
          onChange={(e) => prefs && save({ ...prefs, language: e.currentTarget.value })}
        >
          {LANGUAGES.map((l) => (
            <option key={l.value} value={l.value}>
              {l.label}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}

function Security({ result }: { result: ProfileActionData | undefined }) {
  const navigation = useNavigation();
  const mine = result?.form === "password" ? result : undefined;
  const saving = navigation.formData?.get("intent") === "password";
  return (
    <Form method="post" className="max-w-xl space-y-4" noValidate>
      <input type="hidden" name="intent" value="password" />
      {mine?.notice && <Alert tone={mine.notice.tone}>{mine.notice.text}</Alert>}
      <PasswordField
        label="Current Password"
        name="currentPassword"
        autoComplete="current-password"
        required
        error={mine?.fieldErrors.currentPassword}
      />
      <NewPasswordFields
        label="New Password"
        name="newPassword"
        confirmLabel="Confirm New Password"
        errors={mine?.fieldErrors ?? {}}
      />
      <Button type="submit" disabled={saving}>
        {saving ? "Updating..." : "Update Password"}
      </Button>
    </Form>
  );
}

function Notifications() {
  const [prefs, save] = useLocalPreferences();
  return (
    <fieldset className="max-w-xl space-y-3">
      <legend className="text-sm text-slate-600">These settings are kept in this browser.</legend>
      {NOTIFICATION_SWITCHES.map((s) => {
        const on = prefs?.notifications[s.key] ?? false;
        return (
          <div
            key={s.key}
            className="flex items-center justify-between rounded-lg border border-slate-200 bg-white p-4"
          >
            <div>
              <p id={`switch-${s.key}`} className="font-medium">
                {s.label}
              </p>
              <p className="text-sm text-slate-600">{s.description}</p>
            </div>
            <button
              type="button"
              role="switch"
              aria-checked={on}
              aria-labelledby={`switch-${s.key}`}
              disabled={!prefs}
              onClick={() =>
                prefs && save({ ...prefs, notifications: { ...prefs.notifications, [s.key]: !on } })
              }
              className={`relative h-6 w-11 rounded-full transition-colors ${on ? "bg-brand-600" : "bg-slate-400"}`}
            >
              <span
                aria-hidden="true"
                className={`absolute top-0.5 size-5 rounded-full bg-white transition-transform ${on ? "translate-x-5" : "translate-x-0.5"}`}
              />
            </button>
          </div>
        );
      })}
    </fieldset>
  );
}

/** The page: Profile Information, Security and Notifications tabs; `?tab=security` opens Security. */
export function ProfilePage({
  client,
  twoFactor,
  tab,
  actionData,
}: {
  client: ProfileClient;
  /** The two-factor settings as the loader found them. */
  twoFactor: TwoFactorView;
  tab: "security" | null;
  actionData: ProfileActionData | undefined;
}) {
  const initial =
    actionData?.form === "password" || actionData?.form === "twoFactor" || tab === "security"
      ? "security"
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
              content: <ProfileInformation client={client} result={actionData} />,
            },
            {
              id: "security",
              label: "Security",
              content: (
                <div className="space-y-10">
                  <Security result={actionData} />
                  <section aria-labelledby="two-factor-title" className="space-y-4">
                    <h2 id="two-factor-title" className="text-lg font-semibold">
                      Two-Factor Authentication
                    </h2>
                    <TwoFactorSettings view={actionData?.twoFactor ?? twoFactor} headingLevel={3} />
                  </section>
                </div>
              ),
            },
            { id: "notifications", label: "Notifications", content: <Notifications /> },
          ]}
        />
      </div>
    </div>
  );
}
