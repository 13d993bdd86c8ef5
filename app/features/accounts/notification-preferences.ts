/**
 * The profile's Notifications switches (client-portal.md §2, Profile), saved with the account
 * (user_preferences) and obeyed by the emails that could be sent to a client. Pure and without zod: the
 * profile page reads the list in the browser.
 *
 * What each switch does:
 * - `orderUpdates` off: no email when an order changes status or the business writes on an order.
 * - `emailNotifications` off: the master switch for those same optional emails (order updates and
 *   messages). It never stops the emails an account needs (address verification, password reset,
 *   welcome), nor invoice emails (billing documents: paid, voided, sent again), nor security alerts,
 *   which have their own switch.
 * - `emailNotifications` off also stops the domain watch's alert emails (issue 39); the bell still shows them.
 * - `securityAlerts` off: no email on a sign-in from a new device, a password change or a two-factor
 *   change.
 * - `marketingEmails`: saved only; Portico sends no marketing email (the newsletter is its own public
 *   sign-up).
 * - `smsNotifications`: saved only, and shown disabled: there is no text-message provider yet.
 * The bell notifications in the portal always appear, whatever the switches say.
 */

export const NOTIFICATION_KEYS = [
  "emailNotifications",
  "smsNotifications",
  "orderUpdates",
  "marketingEmails",
  "securityAlerts",
] as const;

export type NotificationKey = (typeof NOTIFICATION_KEYS)[number];
export type NotificationPreferences = Record<NotificationKey, boolean>;

/** The spec's defaults, also a user's preferences until they save theirs. */
export const DEFAULT_NOTIFICATION_PREFERENCES: NotificationPreferences = {
  emailNotifications: true,
  smsNotifications: false,
  orderUpdates: true,
  marketingEmails: false,
  securityAlerts: true,
};

export const NOTIFICATION_SWITCHES: ReadonlyArray<{
  key: NotificationKey;
  label: string;
  description: string;
  /** Why there is nothing to switch yet: said in words where the switch would be (no switch shown). */
  unavailable?: string;
}> = [
  {
    key: "emailNotifications",
    label: "Email notifications",
    description:
      "The main switch for emails about your orders and your domains' health: off, we send none of them, whatever Order updates says. Invoices, receipts and account emails are always sent.",
  },
  {
    key: "smsNotifications",
    label: "SMS notifications",
    description: "Urgent updates by text message",
    unavailable: "SMS notifications are not available yet.",
  },
  {
    key: "orderUpdates",
    label: "Order updates",
    description:
      "Which order emails: one when an order changes status or we write to you about it (needs Email notifications on)",
  },
  { key: "marketingEmails", label: "Marketing emails", description: "News and offers" },
  {
    key: "securityAlerts",
    label: "Security alerts",
    description: "Sign-ins from a new device, password and two-factor changes",
  },
];

/** The kinds of email a client's preferences are asked about. */
export type ClientEmailTopic =
  /** An order changed status. */
  | "orderUpdate"
  /** The business wrote on an order. */
  | "orderMessage"
  /** A new device signed in, the password or two-factor changed. */
  | "securityAlert"
  /** A watched domain's alert raised or cleared (issue 39). */
  | "domainAlert"
  /** Invoices: paid, voided, sent again. Billing documents, always sent. */
  | "invoice"
  /** Verification, password reset, welcome: always sent. */
  | "account";

/** Whether a client with these preferences gets an email of this kind. */
export function emailAllowed(preferences: NotificationPreferences, topic: ClientEmailTopic): boolean {
  switch (topic) {
    case "orderUpdate":
    case "orderMessage":
      return preferences.emailNotifications && preferences.orderUpdates;
    case "securityAlert":
      return preferences.securityAlerts;
    case "domainAlert":
      return preferences.emailNotifications;
    case "invoice":
    case "account":
      return true;
  }
}
