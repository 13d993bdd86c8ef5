/**
 * The thank-you page after a payment, for the signed-in client (issue 37, item 4; ADR 0512): what was
 * paid, read from the database (payments/payment-thanks.server.ts), and the brief's call to action.
 */
import type { Database } from "~/db/client.server";
import { type PaymentThanks, paymentThanks } from "~/features/payments/payment-thanks.server";
import { briefPrompt } from "./client-order.server";

export interface AfterPayment {
  thanks: PaymentThanks | null;
  briefHref: string | null;
}

/** For the client's own order only; another's (or a malformed id) gives nothing to show. */
export async function afterPayment(db: Database, clientId: string, orderId: string): Promise<AfterPayment> {
  const [thanks, briefHref] = await Promise.all([
    paymentThanks(db, clientId, orderId),
    briefPrompt(db, clientId, orderId),
  ]);
  return { thanks, briefHref };
}
