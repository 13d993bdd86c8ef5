/**
 * Two-factor sign-in (TOTP with backup codes): the messages and form rules shared by the browser and
 * the server. The spec is silent on two-factor; these say what happened without revealing more.
 */
import { z } from "zod";
import { MAX_PASSWORD_LENGTH } from "./password";

export const TWO_FACTOR_MESSAGES = {
  codeRequired: "Enter the 6-digit code from your authenticator app, or a backup code.",
  setupCodeRequired: "Enter the 6-digit code from your authenticator app.",
  invalidCode: "That code is not valid. Check your authenticator app (or your backup codes) and try again.",
  invalidSetupCode:
    "That code is not valid. Check that your authenticator app shows this account and try again.",
  challengeExpired: "Your sign-in expired. Please sign in again.",
  tooManyWrongCodes: "Too many wrong codes. Please sign in again.",
  passwordRequired: "Enter your current password to confirm.",
  passwordWrong: "Current password is incorrect.",
  setupStarted: "Scan the QR code with your authenticator app, then enter the code it shows.",
  enabled: "Two-factor authentication is on. Save your backup codes now: they are shown only once.",
  disabled: "Two-factor authentication is off.",
  setupCancelled: "Two-factor setup cancelled.",
  codesRegenerated:
    "New backup codes made. The old ones no longer work. Save these now: they are shown only once.",
  alreadyEnabled: "Two-factor authentication is already on.",
  notEnabled: "Two-factor authentication is not on.",
  failed: "Something went wrong. Please try again.",
  adminRequired: "The back office requires two-factor authentication. Turn it on to continue.",
} as const;

/** Six digits from an authenticator app, or a backup code (`abcde-12345`); spaces are ignored. */
export type ParsedCode = { kind: "totp"; code: string } | { kind: "backup"; code: string };

export function parseSignInCode(raw: string): ParsedCode | null {
  const value = raw.replace(/\s+/g, "");
  if (/^\d{6}$/.test(value)) return { kind: "totp", code: value };
  const backup = /^([A-Za-z0-9]{5})-?([A-Za-z0-9]{5})$/.exec(value);
  if (backup) return { kind: "backup", code: `${backup[1]}-${backup[2]}` };
  return null;
}

const checkbox = z
  .union([z.literal("on"), z.literal("true"), z.literal("false"), z.literal("")])
  .optional()
  .transform((v) => v === "on" || v === "true");

export const twoFactorSignInSchema = z.object({
  code: z
    .string()
    .max(64, { message: TWO_FACTOR_MESSAGES.codeRequired })
    .transform((v, ctx) => {
      const parsed = parseSignInCode(v);
      if (!parsed) {
        ctx.addIssue({ code: "custom", message: TWO_FACTOR_MESSAGES.codeRequired });
        return z.NEVER;
      }
      return parsed;
    }),
  trustDevice: checkbox,
});

export const twoFactorPasswordSchema = z.object({
  password: z
    .string()
    .min(1, { message: TWO_FACTOR_MESSAGES.passwordRequired })
    .max(MAX_PASSWORD_LENGTH, { message: TWO_FACTOR_MESSAGES.passwordWrong }),
});

export const twoFactorSetupCodeSchema = z.object({
  code: z
    .string()
    .transform((v) => v.replace(/\s+/g, ""))
    .pipe(z.string().regex(/^\d{6}$/, { message: TWO_FACTOR_MESSAGES.setupCodeRequired })),
});

/** The intents of the two-factor settings form (profile tab and the admins' setup page). */
export const TWO_FACTOR_INTENTS = [
  "twoFactorStart",
  "twoFactorConfirm",
  "twoFactorCancel",
  "twoFactorDisable",
  "twoFactorBackupCodes",
] as const;
export type TwoFactorIntent = (typeof TWO_FACTOR_INTENTS)[number];

export function isTwoFactorIntent(value: unknown): value is TwoFactorIntent {
  return typeof value === "string" && (TWO_FACTOR_INTENTS as readonly string[]).includes(value);
}

/** The QR code of a TOTP setup, drawn from a path computed on the server (no QR code in the bundle). */
export interface TotpSetup {
  /** The base32 secret, for typing into an app by hand. */
  secret: string;
  uri: string;
  qr: { size: number; path: string };
}

/** What the settings show: whether two-factor is on, being set up, or off, and what to show once. */
export interface TwoFactorView {
  status: "off" | "pending" | "on";
  /** The form that was just submitted (its notice and field errors are shown beside it). */
  intent: TwoFactorIntent | null;
  setup: TotpSetup | null;
  backupCodes: string[] | null;
  notice: { tone: "success" | "error"; text: string } | null;
  fieldErrors: Record<string, string>;
}
