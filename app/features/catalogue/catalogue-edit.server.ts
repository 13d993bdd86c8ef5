/**
 * Editing the service catalogue (the back office's catalogue pages call it). Public pages render from
 * an in-memory copy of the catalogue (`publicCatalogue`) and are kept in this process's page cache: a
 * saved change empties both at once here, through the deps' `invalidatePublicPages` (the page cache is
 * how pages are sent, `app/delivery`, which imports the catalogue: the caller wires it), and the
 * 'catalogue' live event empties them in every other process and tells open portal pages to refresh
 * (ADR 0600).
 */
import { asc, eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { services } from "~/db/schema";
import { type ChangeDeps, type ChangeResult, recordAudit } from "~/features/audit/audit.server";
import { publishLiveEvent } from "~/features/live/live-events.server";
import type { CatalogueEdit } from "./catalogue-form";

/** A catalogue change: the audit's deps, and what empties this process's copies of the public pages. */
export interface CatalogueEditDeps extends ChangeDeps {
  /** Called after the commit: the page cache and the in-memory catalogue (`invalidatePageCache`). */
  invalidatePublicPages(): void;
}

/** Every service, active or not, in catalogue order: the back office's catalogue list. */
export async function listCatalogue(db: Database) {
  return db
    .select({
      id: services.id,
      slug: services.slug,
      name: services.name,
      category: services.category,
      pricing: services.pricing,
      packageOrder: services.packageOrder,
      packageNames: services.packageNames,
      active: services.active,
      updatedAt: services.updatedAt,
    })
    .from(services)
    .orderBy(asc(services.sortOrder));
}

/** Saves a service's name, description, and its packages' prices and features, with an audit row. */
export async function updateCatalogueService(
  deps: CatalogueEditDeps,
  id: string,
  edit: CatalogueEdit,
): Promise<ChangeResult> {
  const result = await deps.db.transaction(async (tx): Promise<ChangeResult> => {
    const [before] = await tx.select().from(services).where(eq(services.id, id)).for("update");
    if (!before) return { ok: false, status: 404, error: "Service not found." };
    // Only the packages the service offers; prices and features of others are kept as they are.
    const pricing = { ...before.pricing };
    const features = { ...before.features };
    for (const p of before.packageOrder) {
      if (edit.pricing[p] !== undefined) pricing[p] = edit.pricing[p];
      if (edit.features[p] !== undefined) features[p] = edit.features[p];
    }
    await tx
      .update(services)
      .set({ name: edit.name, description: edit.description, pricing, features })
      .where(eq(services.id, id));
    await publishLiveEvent(tx, { userId: null, kind: "catalogue", entityId: id, status: "updated" });
    await recordAudit(tx, deps.actor, {
      action: "catalogue.update",
      entity: "service",
      entityId: id,
      before: {
        name: before.name,
        description: before.description,
        pricing: before.pricing,
        features: before.features,
      },
      after: { name: edit.name, description: edit.description, pricing, features },
    });
    return { ok: true, message: `${edit.name} is saved; the site shows the change now.` };
  });
  // After the commit: a render that starts now reads the new catalogue.
  if (result.ok) deps.invalidatePublicPages();
  return result;
}
