/**
 * The profile page's first tab (client-portal.md, Profile): the profile information form, with the
 * timezone and language saved with it (ADR 0521). A plain form posted to the page's action
 * (profile.server.ts) with `intent=profile`.
 */

import { type RefObject, useEffect, useRef } from "react";
import { Form, useNavigation } from "react-router";
import { Button } from "~/ui/button";
import { Alert, TextAreaField, TextField } from "~/ui/field";
import { formErrors } from "~/ui/form";
import { formatDate } from "~/ui/format";
import {
  type ClientLanguage,
  type ClientTimeZone,
  LANGUAGES,
  LOCAL_PREFERENCES_KEY,
  parseLocalPreferences,
} from "./account-locale";
import { type ProfileActionData, profileNotice } from "./profile";
import type { TimeZoneGroup } from "./time-zones";

/** The client record as the form shows it (the portal shell's loader reads it). */
export interface ProfileClient {
  name: string;
  email: string;
  phone: string;
  company: string;
  address: string;
  /** The billing country's ISO code ("" for none). */
  countryCode: string;
  /** Text typed before the list that names no country ("" otherwise): the client is asked to choose. */
  country: string;
  taxId: string;
  /** What the EU's VIES service said of the VAT number (issue 40), when it was asked. */
  vatStatus?: "valid" | "invalid" | "unconfirmed" | null;
  vatCheckedAt?: Date | string | null;
  timeZone: ClientTimeZone;
  language: ClientLanguage;
  /** Whether the client ever saved a timezone or language (else the defaults above). */
  saved: boolean;
}

/** What the VAT field says of VIES's answer (issue 40); nothing when it was never asked. */
function vatHint(client: Pick<ProfileClient, "vatStatus" | "vatCheckedAt">): string | undefined {
  if (client.vatStatus === "valid") {
    return `Confirmed by the EU's VIES service${client.vatCheckedAt ? ` on ${formatDate(client.vatCheckedAt, "long")}` : ""}: invoices to your business are reverse-charged.`;
  }
  if (client.vatStatus === "unconfirmed") {
    return "Not yet confirmed by the EU's VIES service: VAT is charged as for a consumer until it is.";
  }
  return undefined;
}

export function ProfileInformationTab({
  client,
  timeZones,
  countries,
  result,
}: {
  /** The countries by name, from the server (ISO 3166-1 alpha-2 codes). */
  countries: Array<{ code: string; name: string }>;
  client: ProfileClient;
  /** Every IANA zone by region, from the server (its engine's list: the browser renders the same). */
  timeZones: TimeZoneGroup[];
  result: ProfileActionData | undefined;
}) {
  const navigation = useNavigation();
  const mine = result?.form === "profile" ? result : undefined;
  const notice = profileNotice(mine);
  const { fieldErrors } = formErrors(mine);
  const saving = navigation.formData?.get("intent") === "profile";
  return (
    <Form method="post" className="max-w-xl space-y-4" noValidate>
      <input type="hidden" name="intent" value="profile" />
      {notice && <Alert tone={notice.tone}>{notice.text}</Alert>}
      <TextField
        label="Full Name"
        name="name"
        defaultValue={client.name}
        autoComplete="name"
        required
        error={fieldErrors.name}
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
        error={fieldErrors.phone}
      />
      <TextField
        label="Company"
        name="company"
        defaultValue={client.company}
        autoComplete="organization"
        error={fieldErrors.company}
      />
      {/* A textarea: "street-address" (the whole address, lines and all) is not allowed on an input. */}
      <TextAreaField
        label="Billing Address"
        name="address"
        rows={2}
        defaultValue={client.address}
        autoComplete="street-address"
        maxLength={200}
        hint="Printed on invoices issued from now on, on one line"
        error={fieldErrors.address}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <div>
          <label htmlFor="profile-country" className="block text-sm font-medium text-slate-800">
            Country
          </label>
          <select
            id="profile-country"
            name="countryCode"
            defaultValue={client.countryCode}
            autoComplete="country"
            aria-describedby="country-hint"
            aria-invalid={fieldErrors.countryCode || client.country ? true : undefined}
            className="mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2"
          >
            <option value="">Choose a country</option>
            {countries.map((c) => (
              <option key={c.code} value={c.code}>
                {c.name}
              </option>
            ))}
          </select>
          <p id="country-hint" className="mt-1 text-sm text-slate-600" data-testid="country-hint">
            {fieldErrors.countryCode ??
              (client.country
                ? `You wrote "${client.country}", which is not a country we know: choose yours from the list.`
                : "Printed on invoices issued from now on")}
          </p>
        </div>
        <TextField
          label="VAT/Tax ID"
          name="taxId"
          defaultValue={client.taxId}
          maxLength={40}
          error={fieldErrors.taxId}
          hint={vatHint(client)}
        />
      </div>
      <AccountLocaleSettings client={client} timeZones={timeZones} errors={fieldErrors} />
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
  timeZones,
  errors,
}: {
  client: ProfileClient;
  timeZones: TimeZoneGroup[];
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
            {timeZones.map((g) => (
              <optgroup key={g.region} label={g.region}>
                {g.zones.map((t) => (
                  <option key={t.value} value={t.value}>
                    {t.label}
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
        </label>
        <p id="timezone-hint" className="mt-1 text-sm text-slate-600">
          {errors.timeZone ??
            "Every timezone, by region (type a city's first letters to jump to it): dates and times in the portal and in our emails to you"}
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
          {errors.language ??
            "Languages other than English are not available yet: your choice is saved for when they are"}
        </p>
      </div>
    </div>
  );
}
