/**
 * The mail system's public face for the rest of Portico:
 * - `enqueueEmail(tx, { kind, to: mailbox(address, name), replyTo, ...someTemplate(props) })` inside the transaction that stores
 *   what the email is about, then `context.runtime.outbox.wake()` after the commit;
 * - templates live with the feature that sends them (accounts/, contact/) and return
 *   `{ subject, html, text }`;
 * - `startMailOutbox` is called once per process by server/runtime.ts.
 */
import type { Logger } from "pino";
import type { Config } from "~/config.server";
import type { Database } from "~/db/client.server";
import { captureTransport, smtpTransport } from "./transport.server";
import { type OutboxWorker, startOutboxWorker } from "./worker.server";

export { type EmailContent, type MailAddress, mailbox } from "./email";
export { enqueueEmail, type OutgoingEmail } from "./outbox.server";
export type { OutboxWorker };

export function startMailOutbox(config: Config, db: Database, logger: Logger): OutboxWorker {
  const { mail } = config;
  const transport = mail.smtpUrl ? smtpTransport(mail.smtpUrl, mail.from) : captureTransport();
  logger.info(
    { transport: transport.kind, inbox: mail.devInboxEnabled ? "/dev/mail" : "off" },
    "mail outbox started",
  );
  return startOutboxWorker({
    db,
    transport,
    logger: logger.child({ component: "outbox" }),
    maxAttempts: mail.maxAttempts,
    retryBaseMs: mail.retryBaseMs,
    pollIntervalMs: mail.pollIntervalMs,
    leaseMs: mail.leaseMs,
  });
}
