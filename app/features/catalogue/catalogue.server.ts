import { asc, eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { type Service, services } from "~/db/schema";
import { resolveServiceRouteId } from "./catalogue";

/** Every active service, in catalogue order. */
export async function listServices(db: Database): Promise<Service[]> {
  return db.select().from(services).where(eq(services.active, true)).orderBy(asc(services.sortOrder));
}

/**
 * The active catalogue as the public pages show it, read once and kept in memory per database until
 * the catalogue changes (`clearCatalogueCache`, called with the page cache's invalidation: a back-office
 * edit in this process, or the `catalogue` live event from any process). Prices charged at checkout are
 * always read from the database (orders.server.ts), never from here.
 */
let catalogueGeneration = 0;
const publicCatalogues = new WeakMap<Database, { generation: number; services: Promise<Service[]> }>();

export function publicCatalogue(db: Database): Promise<Service[]> {
  const kept = publicCatalogues.get(db);
  if (kept && kept.generation === catalogueGeneration) return kept.services;
  const entry = { generation: catalogueGeneration, services: listServices(db) };
  publicCatalogues.set(db, entry);
  // A failed read is not kept: the next page asks the database again.
  entry.services.catch(() => {
    if (publicCatalogues.get(db) === entry) publicCatalogues.delete(db);
  });
  return entry.services;
}

/** Forgets every kept catalogue: each is read again on next use (a read already under way included). */
export function clearCatalogueCache(): void {
  catalogueGeneration++;
}

/** One service by its canonical id, or null. */
export async function getService(db: Database, id: string): Promise<Service | null> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
  const [row] = await db.select().from(services).where(eq(services.id, id)).limit(1);
  return row ?? null;
}

/** Resolves a route id (canonical id, slug, name or legacy alias) to a canonical service id, or null. */
export async function resolveServiceId(db: Database, routeId: string): Promise<string | null> {
  const rows = await db
    .select({ id: services.id, slug: services.slug, name: services.name })
    .from(services)
    .where(eq(services.active, true));
  return resolveServiceRouteId(routeId, rows);
}

/** One active service of the kept public catalogue by its page slug, or null. */
export async function publicServiceBySlug(db: Database, slug: string): Promise<Service | null> {
  return (await publicCatalogue(db)).find((s) => s.slug === slug) ?? null;
}
