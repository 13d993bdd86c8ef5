/** The thank-you page's query (client-portal.md §2 "/thank-you"): type, email, name; zod-parsed. */
import { z } from "zod";

function buildSchema() {
  const optionalText = z
    .string()
    .trim()
    .max(200)
    .optional()
    .catch(undefined)
    .transform((v) => (v ? v : undefined));
  return z.object({
    // Anything other than registration or payment is the generic 'other'.
    type: z.enum(["registration", "payment", "other"]).catch("other").default("other"),
    email: z.email().max(254).optional().catch(undefined),
    name: optionalText,
    order_id: optionalText,
    amount: optionalText,
  });
}
export type ThankYouQuery = z.infer<ReturnType<typeof buildSchema>>;

// Built on first use (the loader, on the server): built at import it would put zod into the page's
// JavaScript, which only needs emailLine (ADR 0810).
let schema: ReturnType<typeof buildSchema> | undefined;

export function parseThankYouQuery(params: URLSearchParams): ThankYouQuery {
  schema ??= buildSchema();
  return schema.parse(Object.fromEntries(params));
}

/** The line under the heading when an email is present. */
export function emailLine(query: ThankYouQuery): string | null {
  if (!query.email) return null;
  return query.type === "registration"
    ? "Please check your email to verify your account"
    : `A confirmation has been sent to ${query.email}.`;
}
