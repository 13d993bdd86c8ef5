/**
 * From problem to order (issue 39, item 4): the fix each alert offers. A certificate opens the SSL
 * purchase, email authentication the deliverability service, anything else a quote request; the alert's
 * id rides along so the order (or request) is made from it. Pure: the pages and the emails use it.
 */
import type { AlertFix } from "./alerts";

/** The catalogue's services that fix what the watch finds (seeded slugs: catalogue/seed-data.ts). */
export const SSL_SERVICE_SLUG = "ssl-setup";
export const DELIVERABILITY_SERVICE_SLUG = "email-deliverability";

export const FIX_LABELS: Record<AlertFix, string> = {
  ssl: "Renew and install the certificate",
  deliverability: "Fix email authentication",
  quote: "Ask us to fix it (quote request)",
};

/** Which service slug a fix is bought as, if it is a purchase. */
export function fixServiceSlug(fix: AlertFix): string | null {
  if (fix === "ssl") return SSL_SERVICE_SLUG;
  if (fix === "deliverability") return DELIVERABILITY_SERVICE_SLUG;
  return null;
}

/** The signed-in client's fix for one of their alerts. */
export function alertFixHref(fix: AlertFix, alertId: string): string {
  const slug = fixServiceSlug(fix);
  const alert = `alert=${encodeURIComponent(alertId)}`;
  return slug ? `/client/purchase/${slug}?${alert}` : `/client/quotes/new?${alert}`;
}

/** A visitor's fix on the free check (no alert, no account yet): the purchase, or the home page's quote form. */
export function publicFixHref(fix: AlertFix): string {
  const slug = fixServiceSlug(fix);
  return slug ? `/client/purchase/${slug}` : "/#quote";
}
