/**
 * The texts of the notifications the server raises (client-portal.md §4, "Order statuses" and
 * "Invoice statuses"), in one place so every raiser uses the spec's words. Every notice is raised with
 * the page of its object (docs/decisions/0515-notices-as-links.md).
 */
import type { NotificationType } from "~/db/schema";

export interface NotificationText {
  title: string;
  message: string;
  type: NotificationType;
}

/** The spec's words for an order that became paid (the order's email says them too). */
export const ORDER_PAID_MESSAGE = "Payment confirmed! Your order is being processed.";

export const NOTIFICATIONS = {
  /**
   * One payment, one notice (issue 37, item 5): the spec raised three for it ('Payment confirmed! Your
   * order is being processed.', 'Payment Received' and 'Payment Confirmed: Invoice {number} has been
   * paid.'), one notice now says all of it in the spec's words. `orderPaid`: the payment made a pending
   * order paid (a purchase, a quote's deposit); otherwise it paid an invoice of an order already under way
   * (a quote's balance, an overdue invoice).
   */
  paymentReceived: (invoiceNumber: string | null, orderPaid: boolean): NotificationText => ({
    title: "Payment Received",
    message: [
      invoiceNumber ? `Payment Confirmed: Invoice ${invoiceNumber} has been paid.` : "Payment confirmed!",
      ...(orderPaid ? ["Your order is being processed."] : []),
    ].join(" "),
    type: "success",
  }),
  orderCompleted: { title: "Order Update", message: "Service completed successfully!", type: "success" },
  orderCancelled: { title: "Order Update", message: "Order has been cancelled.", type: "warning" },
  newInvoice: (invoiceNumber: string): NotificationText => ({
    title: "New Invoice",
    message: `Invoice ${invoiceNumber} has been created.`,
    type: "info",
  }),
  /** Not in the spec (issue "money that reconciles"): a refund was recorded, with its credit note. */
  refundIssued: (amount: string, invoiceNumber: string, creditNoteNumber: string): NotificationText => ({
    title: "Refund Issued",
    message: `${amount} of invoice ${invoiceNumber} has been refunded (credit note ${creditNoteNumber}).`,
    type: "info",
  }),
  /** Not in the spec: the scheduled job marked an invoice overdue (told once). */
  invoiceOverdue: (invoiceNumber: string): NotificationText => ({
    title: "Invoice Overdue",
    message: `Invoice ${invoiceNumber} is past its due date. Please pay it at your earliest convenience.`,
    type: "warning",
  }),
  /** Not in the spec (issue "after the sale"): the owner wrote on a client's order. */
  orderMessage: (serviceName: string): NotificationText => ({
    title: "New Message",
    message: `New message on your order: ${serviceName}`,
    type: "info",
  }),
  /** The owner's: a client wrote on their order. */
  clientMessage: (clientName: string, serviceName: string): NotificationText => ({
    title: "New Message",
    message: `New message from ${clientName} on an order: ${serviceName}`,
    type: "info",
  }),
  /** The owner's: a client answered their order's brief. */
  briefAnswered: (clientName: string, serviceName: string): NotificationText => ({
    title: "Brief Received",
    message: `${clientName} sent the details for an order: ${serviceName}`,
    type: "info",
  }),
  /** The owner's (issue 37, item 5): a client paid for a new order. `when` is already formatted. */
  newPaidOrder: (clientName: string, what: string, amount: string, when: string): NotificationText => ({
    title: "New Paid Order",
    message: `${clientName} paid ${amount} for ${what} on ${when}.`,
    type: "success",
  }),
  /**
   * Not in the spec (issue 38, item 6): an incident the client's care plan covered was ordered. What a
   * payment's notice says of the order, without a payment: nothing was paid.
   */
  orderCovered: (serviceName: string, planName: string): NotificationText => ({
    title: "Order Placed",
    message: `Your order for ${serviceName} is covered by your ${planName} plan. Your order is being processed.`,
    type: "success",
  }),
  /** The owner's (issue 38, item 6): a client ordered an incident their plan covers. `when` is formatted. */
  newCoveredOrder: (clientName: string, what: string, planName: string, when: string): NotificationText => ({
    title: "New Covered Order",
    message: `${clientName} ordered ${what}, covered by their ${planName} plan, on ${when}.`,
    type: "success",
  }),
  /** The owner's (issue 37, item 5): someone asked for a quote. `when` is already formatted. */
  newQuoteRequest: (name: string, services: string, when: string): NotificationText => ({
    title: "New Quote Request",
    message: `${name} asked for a quote (${services}) on ${when}.`,
    type: "info",
  }),
} satisfies Record<string, NotificationText | ((...n: never[]) => NotificationText)>;
