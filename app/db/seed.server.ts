import { SEED_SERVICES } from "~/features/catalogue/seed-data";
import type { Database } from "./client.server";
import { services } from "./schema";

/**
 * Seeds the service catalogue. Idempotent: a service already present is left as it is, so prices
 * the owner changed later are never overwritten; a service missing from the database is added.
 * Returns how many services were added.
 */
export async function seedDatabase(db: Database): Promise<{ servicesAdded: number }> {
  const added = await db
    .insert(services)
    .values(SEED_SERVICES)
    .onConflictDoNothing({ target: services.id })
    .returning({ id: services.id });
  return { servicesAdded: added.length };
}
