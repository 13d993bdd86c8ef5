import { and, eq, isNull } from "drizzle-orm";
import { SEED_SERVICES } from "~/features/catalogue/seed-data";
import { publishLiveEvent } from "~/features/live/live-events.server";
import { SEED_PLANS } from "~/features/plans/seed-data";
import type { Database } from "./client.server";
import { carePlans, services } from "./schema";

/**
 * Seeds the service catalogue and the care plans. Idempotent: a service already present is left as it is, so prices
 * the owner changed later are never overwritten; a service missing from the database is added.
 * Returns how many services were added. Adding any announces a catalogue change (in the same
 * transaction), so processes already running drop their cached pages and catalogue (ADR 0800).
 *
 * A service whose intake questions were never set (null: the database was seeded before they existed)
 * gets the seed's; questions the owner set, even none, are kept (ADR 0512). They are not on the public
 * pages, so this announces nothing.
 */
export async function seedDatabase(db: Database): Promise<{ servicesAdded: number; plansAdded: number }> {
  return db.transaction(async (tx) => {
    const added = await tx
      .insert(services)
      .values(SEED_SERVICES)
      .onConflictDoNothing({ target: services.id })
      .returning({ id: services.id });
    // The care plans the same way (ADR 0530): a plan present by id or by address is left as it is.
    const plansAdded = await tx
      .insert(carePlans)
      .values(SEED_PLANS)
      .onConflictDoNothing()
      .returning({ id: carePlans.id });
    if (added.length || plansAdded.length) {
      await publishLiveEvent(tx, { userId: null, kind: "catalogue", status: "seeded" });
    }
    for (const seed of SEED_SERVICES) {
      if (!seed.intakeQuestions) continue;
      await tx
        .update(services)
        .set({ intakeQuestions: seed.intakeQuestions })
        .where(and(eq(services.id, seed.id), isNull(services.intakeQuestions)));
    }
    return { servicesAdded: added.length, plansAdded: plansAdded.length };
  });
}
