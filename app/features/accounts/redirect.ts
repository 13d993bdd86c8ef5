/**
 * Where a person may be sent after signing in (`redirectTo`): only a path of this site. A single `/`,
 * then a path character; printable ASCII only, so no control characters (`%0A`, `%0D`, a tab that
 * browsers drop, turning `/\t/evil.example` into `//evil.example`), no backslashes (read as `/`), no
 * spaces and nothing a Location header cannot carry. Anything else goes to the fallback.
 */
const SAME_SITE_PATH = /^\/(?:[A-Za-z0-9\-._~!$&'()*+,;=:@%?#][A-Za-z0-9\-._~!$&'()*+,;=:@%?#/]*)?$/;

export function safeRedirectPath(value: string | null | undefined, fallback: string): string {
  if (!value || value.length > 2000 || !SAME_SITE_PATH.test(value)) return fallback;
  return value;
}

/** Where a completed sign-in (password, or password and code) lands: admins at the back office. */
export function landingAfterSignIn(role: string | null | undefined, requestUrl: string): string {
  if (role === "admin") return "/admin/dashboard";
  return safeRedirectPath(new URL(requestUrl).searchParams.get("redirectTo"), "/client/dashboard");
}
