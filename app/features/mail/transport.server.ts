/**
 * Where claimed emails go: an SMTP relay through nodemailer (SMTP_URL), or, without one, nowhere at
 * all: the outbox row itself is the captured message, shown at /dev/mail.
 */
import { randomUUID } from "node:crypto";
import nodemailer from "nodemailer";
import type { ClaimedEmail } from "./outbox.server";

export interface MailTransport {
  kind: "smtp" | "capture";
  send(email: ClaimedEmail): Promise<{ messageId: string }>;
  close(): void;
}

export function smtpTransport(url: string, from: string): MailTransport {
  const transporter = nodemailer.createTransport({
    url,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
  return {
    kind: "smtp",
    async send(email) {
      const info = await transporter.sendMail({
        from,
        to: email.to,
        replyTo: email.replyTo ?? undefined,
        subject: email.subject,
        html: email.html,
        text: email.text,
        // Lets a receiving system (and our tests) recognise a retry of the same outbox message.
        headers: { "X-Portico-Outbox-Id": email.id },
      });
      return { messageId: info.messageId };
    },
    close: () => transporter.close(),
  };
}

export function captureTransport(): MailTransport {
  return {
    kind: "capture",
    send: async () => ({ messageId: `<${randomUUID()}@captured.portico>` }),
    close: () => {},
  };
}
