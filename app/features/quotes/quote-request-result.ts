/**
 * The quote request form's fields, limits, texts and result, without the validation schema (kept free
 * of zod, like the contact form's, so the home page's JavaScript stays small).
 */

import type { ActionResult } from "~/ui/form";

export const QUOTE_INTENT = "quote";

export type QuoteField = "name" | "email" | "company" | "services" | "description" | "budget" | "deadline";
export const QUOTE_TEXT_FIELDS = ["name", "email", "company", "description", "budget", "deadline"] as const;
export type QuoteTextField = (typeof QUOTE_TEXT_FIELDS)[number];

export const QUOTE_LIMITS = {
  name: 100,
  email: 254,
  company: 200,
  description: 5000,
  budget: 100,
  deadline: 10,
  /** At most this many services ticked. */
  services: 20,
} as const;

export const QUOTE_SENDING_LABEL = "Sending Request...";
export const QUOTE_SUCCESS_HEADING = "Quote Request Received!";
export const QUOTE_RATE_LIMITED = "Too many requests in a short time. Please try again later.";

/** What the action answers to a quote request post (ADR 0011), the same with and without JavaScript. */
export type QuoteFormResult = ActionResult<
  { form: "quote"; email: string },
  {
    form: "quote";
    field: QuoteField | null;
    values: Record<QuoteTextField, string> & { services: string[] };
  }
>;

export function isQuoteFormResult(value: unknown): value is QuoteFormResult {
  return Boolean(value && typeof value === "object" && (value as { form?: unknown }).form === "quote");
}

/** The posted fields as text (services: every ticked box), for validation and to refill the form. */
export function quoteValues(form: FormData): Record<QuoteTextField, string> & { services: string[] } {
  const values = {
    services: form.getAll("services").filter((v): v is string => typeof v === "string"),
  } as Record<QuoteTextField, string> & { services: string[] };
  for (const field of QUOTE_TEXT_FIELDS) {
    const value = form.get(field);
    values[field] = typeof value === "string" ? value : "";
  }
  return values;
}
