/**
 * The client quote page's deps, built from a request's load context by its route: the quote changes
 * act as the signed-in client, an acceptance goes on to checkout with the runtime's providers
 * (payments' `orderDeps`), and queued email leaves at once.
 */
import type { AppLoadContext } from "react-router";
import type { Client } from "~/db/schema";
import { orderDeps } from "~/features/payments/deps.server";
import type { ClientQuoteDeps } from "./client-quote.server";

export function clientQuoteDeps(
  context: AppLoadContext,
  client: Pick<Client, "id" | "email">,
): ClientQuoteDeps {
  const { runtime } = context;
  return {
    db: runtime.database.db,
    config: runtime.config,
    actor: { id: client.id, email: client.email },
    checkout: orderDeps(context),
    wakeOutbox: () => runtime.outbox.wake(),
  };
}
