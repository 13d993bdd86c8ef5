/**
 * The password rules of client-portal.md §5, one pure function used by registration, password reset
 * and password change, on the client (live hints) and again on the server.
 */

export const PASSWORD_MESSAGES = {
  length: "Password must be at least 8 characters long",
  uppercase: "Password must contain at least one uppercase letter",
  lowercase: "Password must contain at least one lowercase letter",
  number: "Password must contain at least one number",
  special: "Password must contain at least one special character",
  common: "Password is too common, please choose a stronger password",
} as const;

const COMMON_PASSWORDS = new Set(["password", "123456", "123456789", "qwerty", "abc123", "password123"]);
const SPECIAL = /[^A-Za-z0-9\s]/g;

export type PasswordRuleKey = keyof typeof PASSWORD_MESSAGES;

/**
 * The rules in the spec's order: how a form words each one as an error (the spec's message), and as the
 * list under a new-password field shows it before anything is typed (issue 37, item 13).
 */
const RULES: ReadonlyArray<{ key: PasswordRuleKey; label: string; broken: (p: string) => boolean }> = [
  { key: "length", label: "At least 8 characters", broken: (p) => p.length < 8 },
  { key: "uppercase", label: "An uppercase letter", broken: (p) => !/[A-Z]/.test(p) },
  { key: "lowercase", label: "A lowercase letter", broken: (p) => !/[a-z]/.test(p) },
  { key: "number", label: "A number", broken: (p) => !/[0-9]/.test(p) },
  {
    key: "special",
    label: "A special character (such as ! or ?)",
    broken: (p) => (p.match(SPECIAL) ?? []).length === 0,
  },
  { key: "common", label: "Not a common password", broken: (p) => COMMON_PASSWORDS.has(p.toLowerCase()) },
];

/** Every rule the password breaks, in the spec's order (empty when it is valid). */
export function passwordErrors(password: string): string[] {
  return RULES.filter((rule) => rule.broken(password)).map((rule) => PASSWORD_MESSAGES[rule.key]);
}

export interface PasswordRuleState {
  key: PasswordRuleKey;
  label: string;
  /**
   * Met or not for what is typed; null before anything is typed, and for "common" unless the browser
   * knows the password is common (the server checks a far longer list: ADR 0700), so it never shows a
   * tick the server may take back.
   */
  met: boolean | null;
}

/** The checklist under a new-password field: every rule, each marked for `password`. */
export function passwordChecklist(password: string): PasswordRuleState[] {
  return RULES.map(({ key, label, broken }) => {
    const met = password === "" ? null : !broken(password);
    return { key, label, met: key === "common" && met ? null : met };
  });
}

/** The first broken rule, as the forms show it, or null when the password is valid. */
export function passwordError(password: string): string | null {
  return passwordErrors(password)[0] ?? null;
}

export type PasswordStrength = "weak" | "medium" | "strong";

/** Medium when valid; strong when valid, at least 12 characters and at least 2 special characters. */
export function passwordStrength(password: string): PasswordStrength {
  if (passwordErrors(password).length > 0) return "weak";
  const specials = (password.match(SPECIAL) ?? []).length;
  return password.length >= 12 && specials >= 2 ? "strong" : "medium";
}

/** Longest password accepted (bounds hashing work). */
export const MAX_PASSWORD_LENGTH = 128;
