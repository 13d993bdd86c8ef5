/**
 * Editing the service catalogue. Public pages render from an in-memory copy of the catalogue
 * (`publicCatalogue`) and are kept in this process's page cache: a saved change empties both at once
 * here, and the 'catalogue' live event empties them in every other process and tells open portal pages
 * to refresh (ADR 0600).
 */
import { asc, eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { services } from "~/db/schema";
import { invalidatePageCache } from "~/delivery/page-cache.server";
import { type ChangeDeps, type ChangeResult, recordAudit } from "~/features/audit/audit.server";
import { publishLiveEvent } from "~/features/live/live-events.server";
import type { CatalogueEdit } from "./catalogue-form";

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

export async function getCatalogueService(db: Database, id: string) {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
  const [row] = await db.select().from(services).where(eq(services.id, id)).limit(1);
  return row ?? null;
}

export async function updateCatalogueService(
  deps: ChangeDeps,
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
  if (result.ok) invalidatePageCache();
  return result;
}
