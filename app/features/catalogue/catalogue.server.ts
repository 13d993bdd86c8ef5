import { and, asc, eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { type Service, services } from "~/db/schema";
import { resolveServiceRouteId } from "./catalogue";

/** Every active service, in catalogue order. */
export async function listServices(db: Database): Promise<Service[]> {
  return db.select().from(services).where(eq(services.active, true)).orderBy(asc(services.sortOrder));
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

/** One active service by its page slug, or null. */
export async function getServiceBySlug(db: Database, slug: string): Promise<Service | null> {
  const [row] = await db
    .select()
    .from(services)
    .where(and(eq(services.slug, slug), eq(services.active, true)))
    .limit(1);
  return row ?? null;
}
