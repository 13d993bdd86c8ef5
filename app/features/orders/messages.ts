/** The purchase messages of client-portal.md §8 "Purchase", in the spec's words. */
export const SERVICE_NOT_FOUND = (id: string) => `Service not found: ${id}`;
export const PAYMENT_FAILED = (message: string) => `Failed to create payment: ${message}`;
