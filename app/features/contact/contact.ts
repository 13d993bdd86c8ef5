/**
 * The contact form's rules and texts (public-site.md §4, §5, §8), shared by the browser and the server.
 */
import { z } from "zod";
import { hasNoNul, invalidCharacterMessage } from "~/features/security/text";
import { CONTACT_FIELDS, CONTACT_LIMITS, type ContactField } from "./contact-result";

export * from "./contact-result";

export const MISSING_FIELDS = "Please fill in all required fields.";
export const INVALID_EMAIL = "Please enter a valid email address.";

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
