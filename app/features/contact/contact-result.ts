/**
 * The contact form's result and alert texts, without the validation schema: what the browser needs to
 * show an answer (and to build the failure alert when no answer came), kept free of zod so the home
 * page's own JavaScript stays small.
 */

import type { ActionResult } from "~/ui/form";

export type ContactField = "name" | "email" | "subject" | "message";
export const CONTACT_FIELDS: ContactField[] = ["name", "email", "subject", "message"];
export const CONTACT_LIMITS = { name: 100, email: 254, subject: 200, message: 5000 } as const;
export const SENDING_LABEL = "Sending Message...";
export const SUCCESS_HEADING = "Message Received!";

/** The form's `intent` value, telling a page's action which form was posted. */
export const CONTACT_INTENT = "contact";

/**
 * The business address the failure alert names, carried by the form so the browser can build the alert
 * when no answer came back at all (contact-client.ts). The server ignores it.
 */
export const BUSINESS_EMAIL_FIELD = "business_email";

/**
 * What a page's action answers to a contact form post (the one form answer, ADR 0011), the same with
 * and without JavaScript. A failure carries the alert's text (`error`, built on the server), the field
 * to focus, and the values to refill.
 */
export type ContactFormResult = ActionResult<
  { form: "contact"; email: string },
  { form: "contact"; field: ContactField | null; values: Record<ContactField, string> }
>;

export function isContactFormResult(value: unknown): value is ContactFormResult {
  return Boolean(value && typeof value === "object" && (value as { form?: unknown }).form === "contact");
}

/** The contact fields of a posted form, each as text ("" when missing). */
export function contactValues(form: FormData): Record<ContactField, string> {
  const values = {} as Record<ContactField, string>;
  for (const field of CONTACT_FIELDS) {
    const value = form.get(field);
    values[field] = typeof value === "string" ? value : "";
  }
  return values;
}

/**
 * The failure alert of §8: 'There was an error sending your message.', the reason, and the way to reach
 * the business directly. `detail` is the server's error text (or 'Server error: {status}').
 */
export function contactFailureMessage(detail: string, contactEmail: string): string {
  let reason = detail.trim();
  if (/credential/i.test(reason)) reason = "Email service is temporarily unavailable.";
  else if (/time(d)?[\s-]?out/i.test(reason)) reason = "Request timed out.";
  return `There was an error sending your message. ${reason} Please try again or contact us directly at ${contactEmail}.`;
}
