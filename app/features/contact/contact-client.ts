/**
 * The browser's side of a contact form post that never reached an answer from the page's action (the
 * network dropped, a proxy answered 5xx): instead of an error page that throws away what was typed, the
 * form gets the spec's failure alert (public-site.md §8) and stays filled. A route's `clientAction`
 * wraps its server action with it.
 */
import { isRouteErrorResponse } from "react-router";
import { QUOTE_INTENT, type QuoteFormResult, quoteValues } from "~/features/quotes/quote-request-result";
import {
  BUSINESS_EMAIL_FIELD,
  CONTACT_INTENT,
  type ContactFormResult,
  contactFailureMessage,
  contactValues,
} from "./contact-result";

/** Why a request failed, in the words of the alert: 'Server error: {status}' or the network's reason. */
export function failureDetail(error: unknown): string {
  if (isRouteErrorResponse(error)) return `Server error: ${error.status}`;
  const status = (error as { status?: unknown } | null)?.status;
  if (typeof status === "number") return `Server error: ${status}`;
  const message = error instanceof Error ? error.message : "";
  const code = /\b([45]\d\d)\b/.exec(message)?.[1];
  if (code) return `Server error: ${code}`;
  if (/time(d)?[\s-]?out|abort/i.test(message)) return "Request timed out.";
  return "Network error. Please check your connection.";
}

/** The status of an answer built in the browser because none came (as a failed fetch's: 0). */
const NO_ANSWER = 0;

export async function withContactFallback(
  request: Request,
  serverAction: () => Promise<unknown>,
): Promise<unknown> {
  const form = await request.clone().formData();
  try {
    return await serverAction();
  } catch (error) {
    // Redirects (a lapsed session) and other forms' failures take their usual way.
    if (error instanceof Response) throw error;
    if (form.get("intent") === QUOTE_INTENT) {
      // The quote form keeps what was typed the same way.
      const quote: QuoteFormResult = {
        form: "quote",
        ok: false,
        status: NO_ANSWER,
        error: `There was an error sending your request. ${failureDetail(error)} Please try again.`,
        field: null,
        values: quoteValues(form),
      };
      return quote;
    }
    if (form.get("intent") !== CONTACT_INTENT) throw error;
    const email = form.get(BUSINESS_EMAIL_FIELD);
    const result: ContactFormResult = {
      form: "contact",
      ok: false,
      status: NO_ANSWER,
      error: contactFailureMessage(failureDetail(error), typeof email === "string" ? email : ""),
      field: null,
      values: contactValues(form),
    };
    return result;
  }
}
