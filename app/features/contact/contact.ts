/**
 * The contact form's rules and texts (public-site.md §4, §5, §8), shared by the browser and the server.
 */
import { z } from "zod";
import { hasNoNul, invalidCharacterMessage } from "~/features/security/text";

export const MISSING_FIELDS = "Please fill in all required fields.";
export const INVALID_EMAIL = "Please enter a valid email address.";
export const SENDING_LABEL = "Sending Message...";
export const SUCCESS_HEADING = "Message Received!";

export const CONTACT_LIMITS = { name: 100, email: 254, subject: 200, message: 5000 } as const;

/** The field a bot fills in and a person never sees (docs/decisions/0302-honeypot.md). */
export const HONEYPOT_FIELD = "website";

const required = (label: string, max: number) =>
  z
    .string({ message: MISSING_FIELDS })
    .trim()
    .min(1, { message: MISSING_FIELDS })
    .max(max, { message: `${label} must be at most ${max} characters.` })
    .refine(hasNoNul, { message: invalidCharacterMessage(label, true) });

export const contactSchema = z.object({
  name: required("Name", CONTACT_LIMITS.name),
  email: required("Email", CONTACT_LIMITS.email).pipe(z.email({ message: INVALID_EMAIL })),
  subject: required("Subject", CONTACT_LIMITS.subject),
  message: required("Message", CONTACT_LIMITS.message),
});

export type ContactInput = z.infer<typeof contactSchema>;
export type ContactField = keyof ContactInput;
export const CONTACT_FIELDS: ContactField[] = ["name", "email", "subject", "message"];

export type ContactCheck =
  | { ok: true; data: ContactInput }
  | { ok: false; error: string; field: ContactField | null };

/** Validates a contact message; a missing field wins over any other problem, as the spec's alert says. */
export function checkContact(raw: unknown): ContactCheck {
  const parsed = contactSchema.safeParse(raw);
  if (parsed.success) return { ok: true, data: parsed.data };
  const issues = parsed.error.issues;
  const issue = issues.find((i) => i.message === MISSING_FIELDS) ?? issues[0]!;
  const field = CONTACT_FIELDS.find((f) => f === issue.path[0]) ?? null;
  return { ok: false, error: issue.message, field };
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

/** The error text of a failed response: its JSON `error`, else its text, else 'Server error: {status}'. */
export function responseErrorDetail(status: number, body: string): string {
  const trimmed = body.trim();
  if (trimmed) {
    try {
      const json = JSON.parse(trimmed) as unknown;
      if (
        json &&
        typeof json === "object" &&
        "error" in json &&
        typeof json.error === "string" &&
        json.error
      ) {
        return json.error;
      }
    } catch {
      if (trimmed.length <= 300 && !trimmed.startsWith("<")) return trimmed;
    }
  }
  return `Server error: ${status}`;
}
