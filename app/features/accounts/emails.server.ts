/** Queues the account emails in the outbox, and wakes this process's worker to send them at once. */
import type { Config } from "~/config.server";
import type { Database } from "~/db/client.server";
import { enqueueEmail, mailbox, type OutboxWorker } from "~/features/mail/mail.server";
import type { TimeZone } from "~/ui/format";
import type { AccountEmails } from "./auth.server";
import {
  passwordResetEmail,
  securityAlertEmail,
  verificationEmail,
  welcomeEmail,
} from "./email-templates.server";
import type { SecurityEvent } from "./security-alerts";

export interface AllAccountEmails extends AccountEmails {
  welcome(user: { name: string; email: string }): Promise<void>;
  /**
   * A security alert; the caller has checked the user's "Security alerts" switch. `at` is written in the
   * client's saved timezone (ADR 0521).
   */
  securityAlert(
    user: { name: string; email: string },
    event: SecurityEvent,
    at: Date,
    timeZone?: TimeZone,
  ): Promise<void>;
}

export function accountEmails(config: Config, db: Database, outbox: OutboxWorker): AllAccountEmails {
  const common = { business: config.business, publicUrl: config.publicUrl };
  const queue = async (
    kind: string,
    to: { email: string; name: string },
    content: { subject: string; html: string; text: string },
  ) => {
    await enqueueEmail(db, { kind, to: mailbox(to.email, to.name), ...content });
    outbox.wake();
  };
  return {
    verification: (user, url) =>
      queue("account-verification", user, verificationEmail({ ...common, name: user.name, url })),
    passwordReset: (user, url) =>
      queue("password-reset", user, passwordResetEmail({ ...common, name: user.name, url })),
    welcome: (user) => queue("account-welcome", user, welcomeEmail({ ...common, name: user.name })),
    securityAlert: (user, event, at, timeZone) =>
      queue("security-alert", user, securityAlertEmail({ ...common, name: user.name, event, at, timeZone })),
  };
}
