/** Where the client reads an invoice (client-portal.md: "/invoice/{id} (also seen as /client/invoice/{invoiceId})"). */
export const clientInvoicePath = (invoiceId: string) => `/client/invoice/${invoiceId}`;
