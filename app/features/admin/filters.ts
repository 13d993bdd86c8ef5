/** The list filters of the back office (pure: the pages render them, the server applies them). */
export const invoiceFilters = ["all", "outstanding", "overdue", "sent", "paid", "void"] as const;
export type InvoiceFilter = (typeof invoiceFilters)[number];

export const messageFilters = ["all", "unread", "read"] as const;
export type MessageFilter = (typeof messageFilters)[number];
