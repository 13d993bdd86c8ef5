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

/** Every rule the password breaks, in the spec's order (empty when it is valid). */
export function passwordErrors(password: string): string[] {
  const errors: string[] = [];
  if (password.length < 8) errors.push(PASSWORD_MESSAGES.length);
  if (!/[A-Z]/.test(password)) errors.push(PASSWORD_MESSAGES.uppercase);
  if (!/[a-z]/.test(password)) errors.push(PASSWORD_MESSAGES.lowercase);
  if (!/[0-9]/.test(password)) errors.push(PASSWORD_MESSAGES.number);
  if ((password.match(SPECIAL) ?? []).length === 0) errors.push(PASSWORD_MESSAGES.special);
  if (COMMON_PASSWORDS.has(password.toLowerCase())) errors.push(PASSWORD_MESSAGES.common);
  return errors;
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
