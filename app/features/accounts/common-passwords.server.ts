/**
 * The large offline list of common passwords (about 49,000, from leaked-password corpora, shipped by
 * `@zxcvbn-ts/language-common` as a compressed dictionary in the package: nothing is fetched at run
 * time). Server-only: the browser keeps password.ts's short list for its live hints, so no page's
 * JavaScript grows; the server checks the full list on every path that sets a password.
 */
import { createRequire } from "node:module";
import type { dictionary as Dictionary } from "@zxcvbn-ts/language-common";
import { PASSWORD_MESSAGES, passwordError } from "./password";

let common: Set<string> | null = null;

/**
 * Loaded once per process, on first use: the package too, not at start (ADR 0803), since only setting a
 * password needs it. Synchronously, so the checks stay synchronous.
 */
function commonPasswords(): Set<string> {
  if (!common) {
    const { dictionary } = createRequire(import.meta.url)("@zxcvbn-ts/language-common") as {
      dictionary: typeof Dictionary;
    };
    common = new Set(dictionary["passwords-common"].map((p) => p.toLowerCase()));
  }
  return common;
}

/** Whether the password (case-insensitively) is on the list. */
export function isCommonPassword(password: string): boolean {
  return commonPasswords().has(password.toLowerCase());
}

/** The spec's rules, then the large list: the first problem, or null when the password may be used. */
export function serverPasswordError(password: string): string | null {
  return passwordError(password) ?? (isCommonPassword(password) ? PASSWORD_MESSAGES.common : null);
}
