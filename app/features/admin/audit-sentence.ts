/**
 * An audit row as the owner reads it (issue 37, item 8): one plain sentence per action ("Status changed to
 * In Progress — note: …"), with the statuses in the words the client sees, never the row's raw JSON.
 * Pure: the history cards and the audit log page render it on the server and in the browser alike.
 */
import { formatMoney } from "~/features/money/format";
import { statusLabel } from "~/ui/badge";

export interface AuditEntry {
  action: string;
  before?: unknown;
  after?: unknown;
}

type Fields = Record<string, unknown>;

const fieldsOf = (value: unknown): Fields =>
  value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Fields) : {};

const text = (value: unknown): string | null =>
  typeof value === "string" && value.trim() !== "" ? value.trim() : null;

const amountOf = (amount: unknown, currency: unknown): string | null => {
  const n = typeof amount === "number" ? amount : typeof amount === "string" ? Number(amount) : Number.NaN;
  return Number.isFinite(n) ? formatMoney(n, text(currency) ?? "USD") : null;
};

/** " — note: …" style tails, only for what is there. */
const tail = (parts: [string, unknown][]): string =>
  parts
    .map(([label, value]) => {
      const said = text(value);
      return said ? ` — ${label}${said}` : "";
    })
    .join("");

const status = (value: unknown): string => statusLabel(text(value) ?? "unknown");

const SENTENCES: Record<string, (before: Fields, after: Fields) => string> = {
  "order.status": (b, a) =>
    `Status changed${b.status ? ` from ${status(b.status)}` : ""} to ${status(a.status)}${tail([
      ["note: ", a.note],
      ["", a.via],
    ])}`,
  "invoice.paid": (_b, a) =>
    `Invoice marked paid${text(a.method) ? ` by ${a.method}` : ""}${tail([
      ["reference: ", a.paymentReference],
      ["", a.via],
    ])}`,
  "invoice.void": (_b, a) => `Invoice voided${tail([["reason: ", a.reason]])}`,
  "invoice.resend": () => "Invoice sent to the client again",
  "invoice.refund": (_b, a) =>
    `Refund of ${amountOf(a.amount, a.currency) ?? "an amount"} asked${
      text(a.via) === "manual" ? " (sent back by hand)" : text(a.via) ? ` through ${a.via}` : ""
    }${tail([["reason: ", a.reason]])}`,
  "quote.draft": () => "Quote draft saved",
  "quote.revise": (_b, a) => `Revision started${text(a.supersedes) ? ` of ${a.supersedes}` : ""}`,
  "quote.send": (_b, a) => `Quote${text(a.quoteNumber) ? ` ${a.quoteNumber}` : ""} sent to the client`,
  "quote.accept": (_b, a) => `Quote accepted${tail([["signed: ", a.signature]])}`,
  "quote.decline": (_b, a) => `Quote declined${tail([["reason: ", a.reason]])}`,
  "quote.expire": () => "Quote expired unanswered",
  "message.read": () => "Message marked read",
  "message.unread": () => "Message marked unread",
  "message.reply": (_b, a) => `Reply sent${text(a.subject) ? `: “${a.subject}”` : ""}`,
  "catalogue.update": (_b, a) => `Service${text(a.name) ? ` ${a.name}` : ""} edited (prices, features)`,
  "catalogue.intake": () => "Brief questions edited",
  "plan.create": (_b, a) => `Care plan${text(a.name) ? ` ${a.name}` : ""} created`,
  "plan.update": (_b, a) => `Care plan${text(a.name) ? ` ${a.name}` : ""} edited`,
  "plan.deactivate": (_b, a) => `Care plan${text(a.name) ? ` ${a.name}` : ""} taken off the site`,
  "plan.activate": (_b, a) => `Care plan${text(a.name) ? ` ${a.name}` : ""} put back on the site`,
  "subscription.cancel": (_b, a) =>
    `${text(a.planName) ?? "Care plan"} ${a.cancelAtPeriodEnd === true ? `set to end${text(a.endsOn) ? ` on ${a.endsOn}` : " at its period's end"}` : "cancelled"}${tail([["reason: ", a.reason]])}`,
  "subscription.resume": (_b, a) => `${text(a.planName) ?? "Care plan"} resumed: it renews again`,
  "subscription.cycle": (_b, a) =>
    text(a.nextCycle)
      ? `${text(a.planName) ?? "Care plan"} switches to ${a.nextCycle}${text(a.from) ? ` from ${a.from}` : ""}`
      : `${text(a.planName) ?? "Care plan"} keeps its cycle (switch called off)`,
  "subscription.card": (_b, a) =>
    `${text(a.planName) ?? "Care plan"}: new card for renewals${tail([["", a.card]])}`,
  "client.delete": () => "Account deleted",
  "client.data_export": () => "Data export downloaded",
  "admin.create": () => "Admin account created",
  "admin.promote": () => "Made an admin",
};

/** The sentence of one audit row; an action this list does not know is named in words. */
export function auditSentence(entry: AuditEntry): string {
  const sentence = SENTENCES[entry.action];
  if (sentence) return sentence(fieldsOf(entry.before), fieldsOf(entry.after));
  const words = entry.action.replace(/[._]/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}
