/**
 * The account forms' rules as zod schemas with the spec's messages (client-portal.md §5). Shared by the
 * browser (hints before submit, fetched when a form is first used) and the server (the rules that
 * count). Written with `zod/mini`, zod's tree-shakable API over the same core: the browser gets a few
 * kilobytes instead of the whole library (ADR 0810).
 */
import * as z from "zod/mini";
import { hasNoNul, invalidCharacterMessage } from "~/features/security/text";
import { LANGUAGE_VALUES } from "./account-locale";
import { isCountryCode } from "./countries";
import { ACCOUNT_MESSAGES } from "./messages";
import { MAX_PASSWORD_LENGTH, passwordError } from "./password";
import { phoneProblem } from "./phone";
import { isOfferedTimeZone } from "./time-zones";

const tooLongPassword = `Password must be at most ${MAX_PASSWORD_LENGTH} characters long`;

const email = z
  .string()
  .check(
    z.trim(),
    z.toLowerCase(),
    z.maxLength(254, { message: ACCOUNT_MESSAGES.invalidEmail }),
    z.email({ message: ACCOUNT_MESSAGES.invalidEmail }),
  );

/** A password field that is only compared or checked elsewhere: bounded, any content. */
const anyPassword = z.string().check(z.maxLength(MAX_PASSWORD_LENGTH, { message: tooLongPassword }));

const newPassword = z.string().check(
  z.maxLength(MAX_PASSWORD_LENGTH, { message: tooLongPassword }),
  z.superRefine((value, ctx) => {
    const error = passwordError(value);
    if (error) ctx.addIssue({ code: "custom", message: error, input: value });
  }),
);

const checkbox = z.pipe(
  z.optional(z.union([z.literal("on"), z.literal("true"), z.literal("false"), z.literal("")])),
  z.transform((v) => v === "on" || v === "true"),
);

const name = z
  .string()
  .check(
    z.trim(),
    z.minLength(1, { message: ACCOUNT_MESSAGES.nameRequired }),
    z.maxLength(100, { message: ACCOUNT_MESSAGES.nameTooLong }),
    z.refine(hasNoNul, { message: invalidCharacterMessage("Name") }),
  );

/** An optional one-line text field: trimmed, bounded, no NUL; a form without it leaves it unset. */
const optionalText = (max: number, tooLong: string, label: string) =>
  z.optional(
    z
      .string()
      .check(
        z.trim(),
        z.maxLength(max, { message: tooLong }),
        z.refine(hasNoNul, { message: invalidCharacterMessage(label) }),
      ),
  );

/**
 * The billing address as invoices print it, on one line: the profile takes it in a textarea (the
 * control HTML allows the browser's "street-address" autofill on), so line breaks become ", ".
 */
export function addressOnOneLine(value: string): string {
  return value
    .split(/\r\n|\r|\n/)
    .map((line) => line.trim().replace(/,$/, "").trim())
    .filter(Boolean)
    .join(", ");
}

export const registerSchema = z
  .object({ name, email, password: newPassword, confirmPassword: anyPassword })
  .check(
    z.refine((v) => v.password === v.confirmPassword, {
      message: ACCOUNT_MESSAGES.passwordsDoNotMatch,
      path: ["confirmPassword"],
    }),
  );

export const loginSchema = z.object({
  email,
  password: z
    .string()
    .check(
      z.minLength(1, { message: ACCOUNT_MESSAGES.passwordRequired }),
      z.maxLength(MAX_PASSWORD_LENGTH, { message: tooLongPassword }),
    ),
  rememberMe: checkbox,
});

export const forgotPasswordSchema = z.object({ email });

/** The profile's Notifications form: a switch that is off is not posted (a plain checkbox). */
export const notificationPreferencesSchema = z.object({
  emailNotifications: checkbox,
  smsNotifications: checkbox,
  orderUpdates: checkbox,
  marketingEmails: checkbox,
  securityAlerts: checkbox,
});

export const resetPasswordSchema = z
  .object({
    token: z.string().check(z.minLength(1), z.maxLength(200), z.refine(hasNoNul)),
    password: newPassword,
    confirmPassword: anyPassword,
  })
  .check(
    z.refine((v) => v.password === v.confirmPassword, {
      message: ACCOUNT_MESSAGES.passwordsDoNotMatch,
      path: ["confirmPassword"],
    }),
  );

export const profileSchema = z.object({
  name,
  // Optional; written as people write it ("+44 (0)20 7946 0958", "555 0100 ext 12"): phone.ts.
  phone: z.string().check(
    z.trim(),
    z.superRefine((value, ctx) => {
      const problem = phoneProblem(value);
      if (!problem) return;
      const message = problem === "tooLong" ? ACCOUNT_MESSAGES.phoneTooLong : ACCOUNT_MESSAGES.phoneInvalid;
      ctx.addIssue({ code: "custom", message, input: value });
    }),
  ),
  company: z
    .string()
    .check(
      z.trim(),
      z.maxLength(120, { message: ACCOUNT_MESSAGES.companyTooLong }),
      z.refine(hasNoNul, { message: invalidCharacterMessage("Company name") }),
    ),
  // Billing details printed on invoices issued from now on (ADR 0504).
  address: z.optional(
    z
      .string()
      .check(
        z.overwrite(addressOnOneLine),
        z.maxLength(200, { message: ACCOUNT_MESSAGES.addressTooLong }),
        z.refine(hasNoNul, { message: invalidCharacterMessage("Address") }),
      ),
  ),
  // Free text as it should be printed, not an ISO code from a list (ADR 0504: the page's script budget).
  country: optionalText(56, ACCOUNT_MESSAGES.countryTooLong, "Country"),
  // The billing country from the list, an ISO 3166-1 alpha-2 code (issue 37, item 12); empty: none.
  countryCode: z.optional(
    z
      .string()
      .check(z.refine((v) => v === "" || isCountryCode(v), { message: ACCOUNT_MESSAGES.countryInvalid })),
  ),
  taxId: optionalText(40, ACCOUNT_MESSAGES.taxIdTooLong, "VAT/Tax ID"),
  // Saved with the account (ADR 0521): one of the choices the profile offers; a form without them
  // leaves them as they were.
  // Every IANA zone (issue 37, item 12): the list the profile offers, from the engine (time-zones.ts).
  timeZone: z.optional(
    z
      .string({ message: ACCOUNT_MESSAGES.timeZoneInvalid })
      .check(z.refine(isOfferedTimeZone, { message: ACCOUNT_MESSAGES.timeZoneInvalid })),
  ),
  language: z.optional(z.enum(LANGUAGE_VALUES, { message: ACCOUNT_MESSAGES.languageInvalid })),
});

export const changePasswordSchema = z
  .object({
    currentPassword: z
      .string()
      .check(
        z.minLength(1, { message: ACCOUNT_MESSAGES.currentPasswordRequired }),
        z.maxLength(MAX_PASSWORD_LENGTH, { message: tooLongPassword }),
      ),
    newPassword,
    confirmPassword: anyPassword,
  })
  .check(
    z.refine((v) => v.newPassword === v.confirmPassword, {
      message: ACCOUNT_MESSAGES.newPasswordsDoNotMatch,
      path: ["confirmPassword"],
    }),
  );
