/**
 * What the account functions (sign-up, sign-in, verification, passwords, two-factor, profile) need,
 * taken from a request's load context: routes call `fn(accountDeps(context), …)`.
 */
import type { Logger } from "pino";
import type { AppLoadContext } from "react-router";
import type { Config } from "~/config.server";
import type { Database } from "~/db/client.server";
import type { Auth } from "./auth.server";
import type { AllAccountEmails } from "./emails.server";

export interface AccountDeps {
  db: Database;
  /** better-auth: sign-up, sign-in, passwords, verification links, two-factor. */
  auth: Auth;
  /** The secret that signs better-auth's cookies (the two-factor challenge is read with it). */
  authSecret: string;
  config: Pick<Config, "publicUrl" | "business" | "tax">;
  /** Queues the welcome email after a sign-up, and the security alerts. */
  emails: Pick<AllAccountEmails, "welcome" | "securityAlert">;
  /** The caller's IP address, for the per-address rate limits (null when unknown). */
  clientIp: string | null;
  logger: Pick<Logger, "warn" | "error">;
}

export function accountDeps(context: AppLoadContext): AccountDeps {
  const { runtime, logger, clientIp } = context;
  return {
    db: runtime.database.db,
    auth: runtime.auth,
    authSecret: runtime.authSecret,
    config: runtime.config,
    emails: runtime.accountEmails,
    clientIp,
    logger,
  };
}
