/**
 * The profile page (client-portal.md, Profile): profile information, the security tab (change password,
 * two-factor settings) and notification switches. Plain forms posted to the page's action
 * (profile.server.ts), told apart by their `intent`. The notification switches are saved with the account
 * (plain checkboxes, so they save without JavaScript); so are the timezone and the language, with the
 * profile information (ADR 0521).
 */
import { type RefObject, useEffect, useRef } from "react";
import { Form, useNavigation } from "react-router";
import { DeleteConfirmField } from "~/features/privacy/DeleteConfirmField";
import { DATA_EXPORTS_PER_DAY } from "~/features/privacy/data-export";
import { Button } from "~/ui/button";
import { cardClass } from "~/ui/card-class";
import { Alert, PasswordField, TextField } from "~/ui/field";
import { Tabs } from "~/ui/tabs";
import {
  type ClientLanguage,
  type ClientTimeZone,
  LANGUAGES,
  LOCAL_PREFERENCES_KEY,
  parseLocalPreferences,
  TIMEZONES,
} from "./account-locale";
import { NewPasswordFields } from "./NewPasswordFields";
import { NOTIFICATION_SWITCHES, type NotificationPreferences } from "./notification-preferences";
import type { ProfileActionData } from "./profile";
import { TwoFactorSettings } from "./TwoFactorSettings";
import type { TwoFactorView } from "./two-factor";

/** The client record as the form shows it (the portal shell's loader reads it). */
export interface ProfileClient {
  name: string;
  email: string;
  phone: string;
  company: string;
  address: string;
  country: string;
  taxId: string;
  timeZone: ClientTimeZone;
  language: ClientLanguage;
  /** Whether the client ever saved a timezone or language (else the defaults above). */
  saved: boolean;
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
      <TextField
        label="Billing Address"
        name="address"
        defaultValue={client.address}
        autoComplete="street-address"
        maxLength={200}
        hint="Printed on invoices issued from now on"
        error={mine?.fieldErrors.address}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="Country"
          name="country"
          defaultValue={client.country}
          autoComplete="country-name"
          maxLength={56}
          error={mine?.fieldErrors.country}
        />
        <TextField
          label="VAT/Tax ID"
          name="taxId"
          defaultValue={client.taxId}
          maxLength={40}
          error={mine?.fieldErrors.taxId}
        />
      </div>
      <AccountLocaleSettings client={client} errors={mine?.fieldErrors ?? {}} />
      <Button type="submit" disabled={saving}>
        {saving ? "Saving..." : "Save Changes"}
      </Button>
    </Form>
  );
}

/**
 * A choice this browser held before the account saved one (the spec kept them locally): shown in the
 * select, if the client has not touched it yet, and saved with the next "Save Changes". Once the account
 * holds a choice, the local copy goes.
 */
function useEarlierLocalChoice(
  saved: boolean,
  timeZone: RefObject<HTMLSelectElement | null>,
  language: RefObject<HTMLSelectElement | null>,
  defaults: { timeZone: string; language: string },
) {
  useEffect(() => {
    try {
      if (saved) {
        window.localStorage.removeItem(LOCAL_PREFERENCES_KEY);
        return;
      }
      const local = parseLocalPreferences(window.localStorage.getItem(LOCAL_PREFERENCES_KEY));
      // Only where the select still shows what the server rendered: a choice made before hydration stays.
      if (local.timeZone && timeZone.current?.value === defaults.timeZone)
        timeZone.current.value = local.timeZone;
      if (local.language && language.current?.value === defaults.language)
        language.current.value = local.language;
    } catch {
      // Storage refused (private mode, a policy): the account's choices stand.
    }
  }, [saved, timeZone, language, defaults.timeZone, defaults.language]);
}

/** Timezone and language: saved with the account by the profile form (ADR 0521). */
function AccountLocaleSettings({
  client,
  errors,
}: {
  client: ProfileClient;
  errors: Record<string, string | undefined>;
}) {
  const timeZone = useRef<HTMLSelectElement>(null);
  const language = useRef<HTMLSelectElement>(null);
  useEarlierLocalChoice(client.saved, timeZone, language, client);
  const selectClass = "mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2";
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <div>
        <label className="block text-sm font-medium text-slate-800">
          Timezone
          <select
            ref={timeZone}
            name="timeZone"
            className={selectClass}
            defaultValue={client.timeZone}
            aria-describedby="timezone-hint"
            aria-invalid={errors.timeZone ? true : undefined}
          >
            {TIMEZONES.map((t) => (
              <option key={t.value} value={t.value}>
                {t.label}
              </option>
            ))}
          </select>
        </label>
        <p id="timezone-hint" className="mt-1 text-sm text-slate-600">
          {errors.timeZone ?? "Dates and times in the portal and in our emails to you"}
        </p>
      </div>
      <div>
        <label className="block text-sm font-medium text-slate-800">
          Language
          <select
            ref={language}
            name="language"
            className={selectClass}
            defaultValue={client.language}
            aria-describedby="language-hint"
            aria-invalid={errors.language ? true : undefined}
          >
            {LANGUAGES.map((l) => (
              <option key={l.value} value={l.value}>
                {l.label}
              </option>
            ))}
          </select>
        </label>
        <p id="language-hint" className="mt-1 text-sm text-slate-600">
          {errors.language ?? "Saved for later: the portal and our emails are in English for now"}
        </p>
      </div>
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

/**
 * The notification switches: native checkboxes drawn as switches (a checkbox's own checked state is
 * what assistive technology reads, with or without JavaScript), saved with the account by the button.
 */
function Notifications({
  saved,
  result,
}: {
  saved: NotificationPreferences;
  result: ProfileActionData | undefined;
}) {
  const navigation = useNavigation();
  const mine = result?.form === "notifications" ? result : undefined;
  const current = mine?.notifications ?? saved;
  const saving = navigation.formData?.get("intent") === "notifications";
  return (
    <Form method="post" className="max-w-xl space-y-4">
      <input type="hidden" name="intent" value="notifications" />
      {mine?.notice && <Alert tone={mine.notice.tone}>{mine.notice.text}</Alert>}
      <fieldset className="space-y-3">
        <legend className="mb-3 text-sm text-slate-600">
          Which emails we send you. Notifications in the portal always appear.
        </legend>
        {NOTIFICATION_SWITCHES.map((s) => {
          const id = `notify-${s.key}`;
          return (
            <div
              key={s.key}
              className="flex items-center justify-between gap-4 rounded-lg border border-slate-200 bg-white p-4"
            >
              <div>
                <label htmlFor={id} className="font-medium">
                  {s.label}
                </label>
                <p id={`${id}-hint`} className="text-sm text-slate-600">
                  {s.description}
                </p>
                {s.unavailable && (
                  <p id={`${id}-note`} className="text-sm font-medium text-slate-700">
                    {s.unavailable}
                  </p>
                )}
              </div>
              <span className="relative inline-flex shrink-0">
                <input
                  type="checkbox"
                  id={id}
                  name={s.key}
                  defaultChecked={current[s.key]}
                  disabled={Boolean(s.unavailable)}
                  aria-describedby={s.unavailable ? `${id}-hint ${id}-note` : `${id}-hint`}
                  className="peer h-6 w-11 cursor-pointer appearance-none rounded-full bg-slate-500 transition-colors checked:bg-brand-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 disabled:cursor-not-allowed disabled:opacity-50"
                />
                <span
                  aria-hidden="true"
                  className="pointer-events-none absolute top-0.5 left-0.5 size-5 rounded-full bg-white transition-transform peer-checked:translate-x-5"
                />
              </span>
            </div>
          );
        })}
      </fieldset>
      <Button type="submit" disabled={saving}>
        {saving ? "Saving..." : "Save Preferences"}
      </Button>
    </Form>
  );
}

/**
 * "Delete my account" (issue 25, ADR 0520): the current password, the two-factor code when it is on,
 * and DELETE typed; posted to the page's action, which signs out and shows that it is done. Plain
 * uncontrolled inputs, so what is typed before hydration is what is sent.
 */
function DeleteAccount({
  twoFactorOn,
  result,
}: {
  twoFactorOn: boolean;
  result: ProfileActionData | undefined;
}) {
  const navigation = useNavigation();
  const mine = result?.form === "deleteAccount" ? result : undefined;
  const deleting = navigation.formData?.get("intent") === "deleteAccount";
  return (
    <section aria-labelledby="delete-title" className="max-w-xl space-y-4 border-t border-slate-200 pt-8">
      <h2 id="delete-title" className="text-lg font-semibold">
        Delete my account
      </h2>
      <p className="text-sm text-slate-700">
        This signs you out everywhere and deletes your profile, preferences, notifications, the files on your
        orders and your contact messages. Unpaid pending orders are cancelled. The invoices, credit notes and
        quotes we issued to you are kept as issued, as tax law requires (see our{" "}
        <a href="/privacy" className="text-brand-700 underline">
          privacy policy
        </a>
        ). It cannot be undone; you may register again later as a new client.
      </p>
      <Form method="post" className="space-y-4" noValidate>
        <input type="hidden" name="intent" value="deleteAccount" />
        {mine?.notice && <Alert tone={mine.notice.tone}>{mine.notice.text}</Alert>}
        <PasswordField
          label="Your password"
          name="password"
          autoComplete="current-password"
          hint="The one you sign in with"
          required
          error={mine?.fieldErrors.password}
        />
        {twoFactorOn && (
          <TextField
            label="Two-factor code"
            name="code"
            inputMode="text"
            autoComplete="one-time-code"
            hint="The 6-digit code from your authenticator app, or a backup code"
            required
            error={mine?.fieldErrors.code}
          />
        )}
        <DeleteConfirmField error={mine?.fieldErrors.confirm} />
        <Button type="submit" variant="danger" disabled={deleting}>
          {deleting ? "Deleting..." : "Delete my account"}
        </Button>
      </Form>
    </section>
  );
}

/**
 * "Download my data" (issue 25): a plain form posted to the export route, which answers the zip as a
 * download (the page stays where it is), or a 429 with its message past the day's limit.
 */
function Privacy({ twoFactorOn, result }: { twoFactorOn: boolean; result: ProfileActionData | undefined }) {
  return (
    <div className="space-y-8">
      <section aria-labelledby="export-title" className="max-w-xl space-y-4">
        <h2 id="export-title" className="text-lg font-semibold">
          Download my data
        </h2>
        <p className="text-sm text-slate-700">
          One zip file with everything we keep about you: your profile and preferences, your orders, invoices,
          credit notes and quotes, the messages on your orders (with the names of their attachments), your
          notifications, your sign-in sessions and your consents, as JSON files with a README, and every
          invoice as a PDF.
        </p>
        <p className="text-sm text-slate-700">
          You can download it {DATA_EXPORTS_PER_DAY} times a day. Each download is recorded.
        </p>
        <form method="post" action="/client/profile/export">
          <Button type="submit">Download my data</Button>
        </form>
      </section>
      <DeleteAccount twoFactorOn={twoFactorOn} result={result} />
    </div>
  );
}

/** The page: Profile Information, Security, Notifications and Privacy tabs; `?tab=security` opens Security. */
export function ProfilePage({
  client,
  twoFactor,
  notifications,
  tab,
  actionData,
}: {
  client: ProfileClient;
  /** The two-factor settings as the loader found them. */
  twoFactor: TwoFactorView;
  /** The notification switches as saved. */
  notifications: NotificationPreferences;
  tab: "security" | "notifications" | "privacy" | null;
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
            {
              id: "notifications",
              label: "Notifications",
              content: <Notifications saved={notifications} result={actionData} />,
            },
            {
              id: "privacy",
              label: "Privacy",
              content: <Privacy twoFactorOn={twoFactor.status === "on"} result={actionData} />,
            },
          ]}
        />
      </div>
    </div>
  );
}
