/**
 * What every page gets from the root loader: the business identity, the public URL, the signed-in user
 * (looked up once per request) and the request's currency. Reading only: a currency preference is
 * written, after the response, only when detection found something new.
 */
import type { AppLoadContext } from "react-router";
import { getCurrentUser, preferenceOfRequest } from "~/features/accounts/session.server";
import { currencyForRequest } from "~/features/currency/currency.server";

export async function loadRootData(request: Request, context: AppLoadContext) {
  const { config } = context.runtime;
  const user = await getCurrentUser(request, context);
  const currency = await currencyForRequest({
    services: context.runtime.currency,
    db: context.runtime.database.db,
    logger: context.logger,
    request,
    clientAddress: context.clientIp,
    userId: user?.id ?? null,
    // On a portal page the shell's statement reads it (requirePortalShell).
    preference: user ? preferenceOfRequest(context, user.id) : undefined,
    // Counted like the request itself: a stopping process closes its database only after it.
    afterResponse: (task) => void context.runtime.drain.track(task()),
  });
  return { business: config.business, publicUrl: config.publicUrl, user, currency };
}
