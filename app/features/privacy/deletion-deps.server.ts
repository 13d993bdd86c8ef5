/**
 * What deleting an account needs (the account functions' deps, the retention settings) and what it does
 * once its transaction committed: wake the mail outbox (the confirmation to the old address) and expire
 * the cancelled orders' checkouts at their providers. Routes call `fn(deletionDeps(context), …)`.
 */
import type { AppLoadContext } from "react-router";
import type { Config } from "~/config.server";
import { type AccountDeps, accountDeps } from "~/features/accounts/deps.server";
import {
  expireCheckouts,
  type OpenCheckout,
  type PaymentProviders,
} from "~/features/payments/provider.server";

export interface AccountDeletionDeps extends Omit<AccountDeps, "config"> {
  config: AccountDeps["config"] & Pick<Config, "business" | "publicUrl" | "retentionYears">;
  /** Sends the queued confirmation at once instead of at the outbox's next poll. */
  wakeOutbox(): void;
  providers: Pick<PaymentProviders, "forWebhook">;
}

export function deletionDeps(context: AppLoadContext): AccountDeletionDeps {
  const { runtime } = context;
  return {
    ...accountDeps(context),
    config: runtime.config,
    wakeOutbox: () => runtime.outbox.wake(),
    providers: runtime.payments,
  };
}

/**
 * After the deletion committed: the confirmation leaves now, and the cancelled orders' checkouts can no
 * longer be paid (not awaited; a provider's failure is only logged).
 */
export function afterDeletionCommitted(deps: AccountDeletionDeps, checkouts: OpenCheckout[]): void {
  deps.wakeOutbox();
  void expireCheckouts(deps.providers, deps.logger, checkouts);
}
