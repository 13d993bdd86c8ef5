/**
 * The security alerts' pure rules: what a sign-in's device is (its user agent and address family), and
 * when a sign-in counts as one from an unknown device.
 */

/** How many of a user's most recent devices count as known; older ones are forgotten. */
export const KNOWN_DEVICES = 10;

/** A user agent longer than this is cut (it is only compared, never shown). */
export const MAX_USER_AGENT_LENGTH = 512;

export type IpFamily = "v4" | "v6" | "unknown";

export interface SignInDevice {
  userAgent: string;
  ipFamily: IpFamily;
}

/** The address family of an address as the server saw it; an IPv4-mapped IPv6 address is IPv4. */
export function ipFamily(address: string | null | undefined): IpFamily {
  const a = address?.trim().toLowerCase() ?? "";
  if (/^(::ffff:)?\d{1,3}(\.\d{1,3}){3}$/.test(a)) return "v4";
  if (a.includes(":") && /^[0-9a-f:.]+(%\w+)?$/.test(a)) return "v6";
  return "unknown";
}

export function signInDevice(
  userAgent: string | null | undefined,
  address: string | null | undefined,
): SignInDevice {
  return { userAgent: (userAgent ?? "").trim().slice(0, MAX_USER_AGENT_LENGTH), ipFamily: ipFamily(address) };
}

/** A device as stored (its family read back as text). */
export interface SeenDevice {
  userAgent: string;
  ipFamily: string;
}

const sameDevice = (a: SeenDevice, b: SeenDevice) => a.userAgent === b.userAgent && a.ipFamily === b.ipFamily;

/**
 * Whether a sign-in comes from a device none of `seen` (the user's last KNOWN_DEVICES devices and
 * current sessions) matches. A user seen nowhere yet (the first sign-in after registering) is not
 * alerted: there is nothing to compare with.
 */
export function isUnknownDevice(current: SignInDevice, seen: readonly SeenDevice[]): boolean {
  if (seen.length === 0) return false;
  return !seen.some((s) => sameDevice(s, current));
}

/** What an alert is about; each has its own email (email-templates.server.tsx). */
export type SecurityEvent =
  | "newSignIn"
  | "passwordChanged"
  | "twoFactorEnabled"
  | "twoFactorDisabled"
  | "backupCodesRegenerated";
