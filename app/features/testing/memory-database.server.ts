/**
 * For unit tests beside the domain modules: an in-memory PGlite database, migrated and seeded with the
 * catalogue, and the business identity the emails and notices print. Only test files import it.
 */
import { type DatabaseHandle, openDatabase } from "~/db/client.server";
import { migrateDatabase } from "~/db/migrate.server";
import { seedDatabase } from "~/db/seed.server";

export const TEST_PUBLIC_URL = "http://shop.test";

export const TEST_BUSINESS = {
  name: "Portico",
  legalName: "Portico Ltd",
  email: "owner@portico.test",
  phone: "+1 555 0100",
  whatsapp: "15550100",
  address: "1 Main St",
  hours: { weekdays: "9-5", saturday: "closed", sunday: "closed", emergency: "24/7" },
  social: {},
};

export async function openSeededMemoryDatabase(): Promise<DatabaseHandle> {
  const handle = await openDatabase({ kind: "pglite", dir: "memory://" });
  await migrateDatabase(handle);
  await seedDatabase(handle.db);
  return handle;
}
