/**
 * The invoice lists' status filters, one type for the portal and the back office (pure: the pages render
 * them, the servers apply them). The back office offers all of them; a client's portal offers "all,
 * paid, sent, overdue" (client-portal.md, Invoices).
 */
export const INVOICE_FILTERS = ["all", "outstanding", "overdue", "sent", "paid", "void"] as const;
export type InvoiceFilter = (typeof INVOICE_FILTERS)[number];

/** "Filter chips with counts: all, paid, sent, overdue." */
export const CLIENT_INVOICE_FILTERS = [
  "all",
  "paid",
  "sent",
  "overdue",
] as const satisfies readonly InvoiceFilter[];
export type ClientInvoiceFilter = (typeof CLIENT_INVOICE_FILTERS)[number];
