/** The purchase messages of client-portal.md §8 "Purchase", in the spec's words. */
export const SERVICE_NOT_FOUND = (id: string) => `Service not found: ${id}`;
export const PAYMENT_FAILED = (message: string) => `Failed to create payment: ${message}`;
/** Past the hourly checkout budget (checkout-limit.server.ts): not in the spec. */
export const TOO_MANY_ORDERS = "Too many orders in a short time. Please try again later.";
export const TOO_MANY_PAYMENTS = "Too many payment attempts in a short time. Please try again later.";
