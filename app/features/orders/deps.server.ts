/** The dependencies of an order's page, brief and conversation, taken from a request's load context. */
import type { AppLoadContext } from "react-router";
import { expireCheckouts } from "~/features/payments/provider.server";
import type { AfterSaleDeps } from "./order-access.server";

export function afterSaleDeps(context: AppLoadContext): AfterSaleDeps {
  const { runtime } = context;
  return {
    db: runtime.database.db,
    config: runtime.config,
    wakeOutbox: () => runtime.outbox.wake(),
    expireCheckout: (checkout) => void expireCheckouts(runtime.payments, runtime.logger, [checkout]),
  };
}
