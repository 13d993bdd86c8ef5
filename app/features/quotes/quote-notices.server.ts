/** What the quote flow tells each side, in the transaction that made the change. */
import type { Tx } from "~/db/client.server";
import type { Quote } from "~/db/schema";
import { publishLiveEvent } from "~/features/live/live-events.server";
import { enqueueEmail, mailbox } from "~/features/mail/mail.server";
import { noticeEmail } from "~/features/mail/notice-email.server";
import { raiseNotification } from "~/features/notifications/notifications.server";
import { notifyOwners, publishToOwners } from "~/features/orders/order-access.server";
import { adminQuotePath, clientQuotePath, type QuoteDeps } from "./quote-deps.server";

/** Tells the client (bell, live update, email), or the requester without an account (email). */
export async function tellClient(
  tx: Tx,
  deps: Pick<QuoteDeps, "config">,
  quote: Pick<Quote, "id" | "clientId" | "email" | "name">,
  text: { title: string; message: string; subject: string; lines: string[] },
) {
  if (quote.clientId) {
    await raiseNotification(tx, quote.clientId, {
      title: text.title,
      message: text.message,
      type: "info",
      href: clientQuotePath(quote.id),
    });
    await publishLiveEvent(tx, { userId: quote.clientId, kind: "quote", entityId: quote.id });
  }
  await enqueueEmail(tx, {
    kind: "quote",
    to: mailbox(quote.email, quote.name),
    ...noticeEmail({
      business: deps.config.business,
      publicUrl: deps.config.publicUrl,
      subject: text.subject,
      greetingName: quote.name,
      lines: text.lines,
      link: quote.clientId
        ? { path: clientQuotePath(quote.id), label: "Open the quote" }
        : { path: "/client/register", label: "Create your account to see the quote" },
    }),
  });
}

/** Tells the owner (bell, live update, email): an acceptance, a decline, an expiry. */
export async function tellOwner(
  tx: Tx,
  deps: Pick<QuoteDeps, "config">,
  quote: Quote,
  subject: string,
  lines: string[],
  status: "accepted" | "declined" | "expired",
) {
  await publishToOwners(tx, { kind: "quote", entityId: quote.id, status });
  await notifyOwners(tx, {
    title: subject,
    message: lines[0] ?? subject,
    type: status === "accepted" ? "success" : "info",
    href: adminQuotePath(quote.id),
  });
  await enqueueEmail(tx, {
    kind: "quote-owner",
    to: mailbox(deps.config.business.email, deps.config.business.name),
    ...noticeEmail({
      business: deps.config.business,
      publicUrl: deps.config.publicUrl,
      subject,
      greetingName: deps.config.business.name,
      lines,
      link: { path: adminQuotePath(quote.id), label: "Open the quote" },
    }),
  });
}
