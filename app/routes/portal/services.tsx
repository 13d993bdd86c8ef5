import { data } from "react-router";
import { z } from "zod";
import { loadErrorMessage } from "~/db/errors";
import { accountLocaleOf } from "~/features/accounts/account-locale";
import { requireClient } from "~/features/accounts/session.server";
import { listServices } from "~/features/catalogue/catalogue.server";
import { saveChosenCurrencyIfClient } from "~/features/currency/preferences.server";
import { ServicesPage } from "~/features/portal/ServicesPage";
import { serviceCards } from "~/features/portal/services-page";
import { pageTitle } from "~/features/site/meta";
import { actionResponse } from "~/ui/form";
import type { Route } from "./+types/services";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle("Purchase Services", matches) }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const { client } = await requireClient(request, context);
  try {
    const services = await listServices(context.runtime.database.db);
    // The cards' days in the client's zone, the one the shell gives the portal's pages.
    const tz = accountLocaleOf(client).timeZone;
    return { error: null, services: serviceCards(services, tz) };
  } catch (error) {
    context.logger.error({ err: error }, "services: loading failed");
    // "Error loading services: {message}" (fallback 'Failed to fetch services'): an outage says so (and
    // answers 503 like every page then); any other cause's text stays in the log.
    const failed = loadErrorMessage(error, "Failed to fetch services");
    return data({ error: failed.message, services: [] }, { status: failed.unavailable ? 503 : 200 });
  }
}

const currencySchema = z.object({
  currency: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{3}$/),
});

/**
 * The currency selector's choice is saved as the client's preference. The page shows the chosen
 * currency whether or not it was saved, so a choice not saved still answers 200.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const { user } = await requireClient(request, context);
  const parsed = currencySchema.safeParse(Object.fromEntries(await request.formData()));
  const saved =
    parsed.success &&
    (await saveChosenCurrencyIfClient(
      context.runtime.database.db,
      user.id,
      parsed.data.currency,
      context.logger,
    ));
  return actionResponse(
    saved ? { ok: true } : { ok: false, status: 200, error: "The currency was not saved." },
  );
}

export default function Services({ loaderData }: Route.ComponentProps) {
  return <ServicesPage services={loaderData.services} error={loaderData.error} />;
}
