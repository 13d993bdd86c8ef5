/** An email about one invoice to its client (paid, voided, sent again), queued in the caller's transaction. */
import { eq } from "drizzle-orm";
import type { Tx } from "~/db/client.server";
import { clients, type Invoice } from "~/db/schema";
import type { ChangeDeps } from "~/features/audit/audit.server";
import { enqueueEmail, mailbox } from "~/features/mail/mail.server";
import { noticeEmail } from "~/features/mail/notice-email.server";

export async function emailInvoiceClient(
  tx: Tx,
  config: ChangeDeps["config"],
  invoice: Invoice,
  email: { kind: string; subject: string; lines: string[]; linkLabel?: string },
): Promise<void> {
  const [c] = await tx
    .select({ name: clients.name, email: clients.email })
    .from(clients)
    .where(eq(clients.id, invoice.clientId))
    .limit(1);
  if (!c) return;
  await enqueueEmail(tx, {
    kind: email.kind,
    to: mailbox(c.email, c.name),
    ...noticeEmail({
      business: config.business,
      publicUrl: config.publicUrl,
      subject: email.subject,
      greetingName: c.name,
      lines: email.lines,
      link: { path: `/client/invoice/${invoice.id}`, label: email.linkLabel ?? "View the invoice" },
    }),
  });
}
