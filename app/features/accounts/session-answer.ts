/**
 * The answer of GET /api/session (ADR 0822): who is signed in, for the header of a shared public page,
 * and the currency the page should show them. Built by the route, read back by the browser here
 * (no zod: this module ships with the header).
 */
import { toCountryCode, toCurrencyCode } from "~/features/currency/currency";
import type { CurrencyState } from "~/features/currency/currency-state";

/** Where the browser asks (a route, app/routes/api/session.ts; a visitor's answer comes before Express). */
export const SESSION_ANSWER_PATH = "/api/session";

export type SessionAnswer =
  | { signedIn: false; currency: CurrencyState }
  | {
      signedIn: true;
      name: string;
      role: "client" | "admin";
      /** Where the header's Dashboard link leads. */
      dashboard: "/client/dashboard" | "/admin/dashboard";
      currency: CurrencyState;
    };

export function dashboardOf(role: "client" | "admin"): "/client/dashboard" | "/admin/dashboard" {
  return role === "admin" ? "/admin/dashboard" : "/client/dashboard";
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function currencyStateFrom(value: unknown): CurrencyState | null {
  if (!isRecord(value) || !isRecord(value.rates) || !isRecord(value.location)) return null;
  const currency = toCurrencyCode(typeof value.currency === "string" ? value.currency : null);
  if (!currency || currency !== value.currency) return null;
  const rates: Record<string, number> = {};
  for (const [code, rate] of Object.entries(value.rates)) {
    if (toCurrencyCode(code) !== code || typeof rate !== "number" || !Number.isFinite(rate) || rate <= 0) {
      return null;
    }
    rates[code] = rate;
  }
  const { country_code, country_name, currency: local } = value.location;
  if (
    typeof country_code !== "string" ||
    toCountryCode(country_code) !== country_code ||
    typeof country_name !== "string" ||
    typeof local !== "string" ||
    toCurrencyCode(local) !== local
  ) {
    return null;
  }
  return { currency, rates, location: { country_code, country_name, currency: local } };
}

/** The answer checked field by field, or null for anything else (then the page stays as it is). */
export function sessionAnswerFrom(body: unknown): SessionAnswer | null {
  if (!isRecord(body)) return null;
  const currency = currencyStateFrom(body.currency);
  if (!currency) return null;
  if (body.signedIn === false) return { signedIn: false, currency };
  if (body.signedIn !== true || typeof body.name !== "string") return null;
  if (body.role !== "client" && body.role !== "admin") return null;
  return { signedIn: true, name: body.name, role: body.role, dashboard: dashboardOf(body.role), currency };
}
