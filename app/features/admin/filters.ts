/** The list filters of the back office (pure: the pages render them, the server applies them). Invoice
 * filters are features/invoices/invoice-filters.ts, shared with the portal. */
export const messageFilters = ["all", "unread", "read"] as const;
export type MessageFilter = (typeof messageFilters)[number];
