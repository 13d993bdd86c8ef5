/** The newsletter box's rules and texts, shared by browser and server. */

import { z } from "zod";
import type { ActionResult } from "~/ui/form";

export const NEWSLETTER_INVALID = "Please enter a valid email address.";
export const newsletterSubscribed = (email: string) =>
  `Thanks for subscribing! New articles will reach you at ${email}.`;
export const newsletterAlreadySubscribed = (email: string) => `${email} is already subscribed. Thank you!`;

export const newsletterSchema = z.object({
  email: z
    .string({ message: NEWSLETTER_INVALID })
    .trim()
    .min(1, { message: NEWSLETTER_INVALID })
    .max(254, { message: NEWSLETTER_INVALID })
    .pipe(z.email({ message: NEWSLETTER_INVALID })),
});

/** What a page's action returns for a newsletter post; NewsletterForm shows it. */
export type NewsletterResult = ActionResult<
  { form: "newsletter"; message: string; email: string },
  { form: "newsletter"; email: string }
>;
