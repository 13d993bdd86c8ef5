/**
 * Where claimed emails go: an SMTP relay through nodemailer (SMTP_URL), or, without one, nowhere at
 * all: the outbox row itself is the captured message, shown at /dev/mail.
 */
import type { SendMailOptions, Transporter } from "nodemailer";
import { mailbox, outboxMessageId, readStoredAddress } from "./email";
import type { ClaimedEmail } from "./outbox.server";

/**
 * The message nodemailer writes for a claimed email. Addresses are objects, never text: nodemailer
 * quotes or encodes the name (a comma, a quote or a "%" in it stays inside the display name, never adds
 * a recipient), and every recipient is written `Name <address>` (issue 37: a bare To: scores as spam).
 */
export function outgoingMessage(email: ClaimedEmail, from: string): SendMailOptions {
  const replyTo = readStoredAddress(email.replyTo);
  return {
    from,
    to: mailbox(email.to, email.toName),
    replyTo: replyTo ? mailbox(replyTo.address, replyTo.name) : undefined,
    messageId: outboxMessageId(email.id, from),
    subject: email.subject,
    html: email.html,
    text: email.text,
    // Lets a receiving system (and our tests) recognise a retry of the same outbox message.
    headers: { "X-Portico-Outbox-Id": email.id },
  };
}

export interface MailTransport {
  kind: "smtp" | "capture";
  send(email: ClaimedEmail): Promise<{ messageId: string }>;
  close(): void;
}

export function smtpTransport(url: string, from: string): MailTransport {
  // nodemailer is loaded with the first email, not at start (ADR 0803): many processes send none.
  let opening: Promise<Transporter> | null = null;
  let opened: Transporter | null = null;
  let closed = false;
  const open = () => {
    opening ??= import("nodemailer").then(({ default: nodemailer }) => {
      opened = nodemailer.createTransport({
        url,
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 30_000,
      });
      if (closed) opened.close();
      return opened;
    });
    return opening;
  };
  return {
    kind: "smtp",
    async send(email) {
      const transporter = await open();
      const info = await transporter.sendMail(outgoingMessage(email, from));
      return { messageId: info.messageId };
    },
    close: () => {
      closed = true;
      opened?.close();
    },
  };
}

export function captureTransport(): MailTransport {
  return {
    kind: "capture",
    send: async (email) => ({ messageId: outboxMessageId(email.id, "captured@captured.portico") }),
    close: () => {},
  };
}
