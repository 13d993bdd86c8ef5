/**
 * Who may see an order after the sale (its page, brief, conversation and files), and the owner's side
 * of its notices (ADR 0512). Every read is scoped by the viewer: a client sees only their own orders,
 * an admin sees all; another client's order and a malformed id are the same "not found".
 */
import { and, eq, type SQL } from "drizzle-orm";
import type { Config } from "~/config.server";
import type { Database } from "~/db/client.server";
import { clients, type IntakeQuestion, type Order, orders, services, user } from "~/db/schema";
import { isUuid } from "~/features/ids/ids";
import { type LiveEventInput, publishLiveEvent } from "~/features/live/live-events.server";
import type { NotificationText } from "~/features/notifications/messages";
import { raiseNotification } from "~/features/notifications/notifications.server";
import type { UploadsInFlight } from "./uploads-in-flight.server";

/** The signed-in person reading or writing: a client (their own orders) or an admin (the owner's side). */
export interface Viewer {
  id: string;
  role: "client" | "admin";
}

/** What the brief and the conversation need (`afterSaleDeps` in payments/deps.server.ts builds it for a route). */
export interface AfterSaleDeps {
  db: Database;
  config: Pick<Config, "business" | "publicUrl" | "attachmentQuotaBytes">;
  /** Uploads in flight per account in this process (ADR 0514); default: the process's own count. */
  uploadsInFlight?: UploadsInFlight;
  /** The clock (the follow-up period, read marks); tests inject one. Default: the real time. */
  now?: () => Date;
  /** Called after a commit that queued email, so this process's outbox sends it at once. */
  wakeOutbox?: () => void;
  /**
   * Called after an order's cancellation committed: its checkout at the provider can no longer be
   * paid (payments/provider.server.ts expireCheckouts; never throws).
   */
  expireCheckout?: (checkout: { orderId: string; provider: string | null; reference: string | null }) => void;
}

export const nowOf = (deps: Pick<AfterSaleDeps, "now">): Date => deps.now?.() ?? new Date();

/** The condition that scopes orders to a viewer: their own for a client, all for an admin. */
export function orderScope(viewer: Viewer): SQL | undefined {
  return viewer.role === "admin" ? undefined : eq(orders.clientId, viewer.id);
}

/** An order with what after-sale rules need from its service (which may since have changed). */
export interface ScopedOrder {
  order: Order;
  serviceSlug: string | null;
  /** The service's intake questions now (the brief keeps the ones it answered). */
  intakeQuestions: IntakeQuestion[];
  /** The client deleted their account (ADR 0520): no one is left to write to. */
  clientDeleted: boolean;
}

/**
 * The order if the viewer may see it, else null (a malformed id too). `lock`: FOR UPDATE of the order's
 * row, for a caller's transaction that changes what hangs off it.
 */
export async function findOrderFor(
  db: Database,
  viewer: Viewer,
  orderId: string,
  lock = false,
): Promise<ScopedOrder | null> {
  if (!isUuid(orderId)) return null;
  const query = db
    .select({
      order: orders,
      serviceSlug: services.slug,
      intakeQuestions: services.intakeQuestions,
      clientDeletedAt: clients.deletedAt,
    })
    .from(orders)
    .leftJoin(services, eq(services.id, orders.serviceId))
    .leftJoin(clients, eq(clients.id, orders.clientId))
    .where(and(eq(orders.id, orderId), orderScope(viewer)))
    .limit(1);
  const [row] = lock ? await query.for("update", { of: orders }) : await query;
  if (!row) return null;
  return {
    order: row.order,
    serviceSlug: row.serviceSlug,
    intakeQuestions: row.intakeQuestions ?? [],
    clientDeleted: row.clientDeletedAt !== null,
  };
}

/** The owner's accounts: every admin. */
export async function ownerIds(db: Database): Promise<string[]> {
  const rows = await db.select({ id: user.id }).from(user).where(eq(user.role, "admin")).orderBy(user.id);
  return rows.map((r) => r.id);
}

/** A live event for each admin but `except` (the one who caused it, whose own page already knows). */
export async function publishToOwners(
  db: Database,
  event: Omit<LiveEventInput, "userId">,
  except: string | null = null,
): Promise<void> {
  for (const id of await ownerIds(db)) {
    if (id !== except) await publishLiveEvent(db, { ...event, userId: id });
  }
}

/** A bell notification for each admin. */
export async function notifyOwners(db: Database, text: NotificationText & { href: string }): Promise<void> {
  for (const id of await ownerIds(db)) await raiseNotification(db, id, text);
}

/** The order pages of each side. */
export const clientOrderPath = (orderId: string) => `/client/orders/${orderId}`;
export const adminOrderPath = (orderId: string) => `/admin/orders/${orderId}`;
