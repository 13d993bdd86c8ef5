/**
 * The texts of the notifications the server raises (client-portal.md §4, "Order statuses" and
 * "Invoice statuses"), in one place so every raiser uses the spec's words.
 */
import type { NotificationType } from "~/db/schema";

export interface NotificationText {
  title: string;
  message: string;
  type: NotificationType;
}

export const NOTIFICATIONS = {
  /** An order became paid (two notifications, as the old portal raised both). */
  orderPaid: {
    title: "Order Update",
    message: "Payment confirmed! Your order is being processed.",
    type: "success",
  },
  paymentReceived: {
    title: "Payment Received",
    message: "Your payment has been confirmed. Service will begin shortly.",
    type: "success",
  },
  orderCompleted: { title: "Order Update", message: "Service completed successfully!", type: "success" },
  orderCancelled: { title: "Order Update", message: "Order has been cancelled.", type: "warning" },
  newInvoice: (invoiceNumber: string): NotificationText => ({
    title: "New Invoice",
    message: `Invoice ${invoiceNumber} has been created.`,
    type: "info",
  }),
  invoicePaid: (invoiceNumber: string): NotificationText => ({
    title: "Payment Confirmed",
    message: `Payment Confirmed: Invoice ${invoiceNumber} has been paid.`,
    type: "success",
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
} satisfies Record<string, NotificationText | ((...n: string[]) => NotificationText)>;
