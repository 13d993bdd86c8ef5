/**
 * Signing people in against a test server (tests/support/server.ts), for the integration tests of the
 * back office and of two-factor sign-in: a session per client address, sign-in with the fixture
 * password, accounts made and signed in in one step, and the records a back-office test acts on.
 */
import { expect } from "vitest";
import type { Database } from "~/db/client.server";
import { contactMessages, services } from "~/db/schema";
import { createAccount, createOrder, FIXTURE_PASSWORD, type FixtureOrder } from "./admin-fixtures";
import { location, Session } from "./browserless";
import type { TestServer } from "./server";

export interface Accounts {
  /** The server's own database handle. */
  db(): Database;
  /** A session from the next address, so per-address limits never meet unless a test wants them. */
  newSession(): Session;
  /** Posts the sign-in form with the fixture password (and `fields`), from a new session by default. */
  signIn(
    email: string,
    fields?: Record<string, string>,
    session?: Session,
    query?: string,
  ): Promise<{ s: Session; res: Response }>;
  /** A verified account (a client unless `role` says admin), signed in where its role lands. */
  signedIn(input: {
    email: string;
    name: string;
    role?: "client" | "admin";
  }): Promise<{ id: string; session: Session }>;
}

/**
 * `server` is read when used (it starts in a `beforeAll`); `address(n)` is the n-th session's client
 * address (from 1), sent as X-Forwarded-For.
 */
export function accountsOn(server: () => TestServer, address: (n: number) => string): Accounts {
  let sessions = 0;
  const accounts: Accounts = {
    db: () => server().portico.runtime.database.db,
    newSession: () => new Session(server().url, address(++sessions)),
    async signIn(email, fields = {}, session = accounts.newSession(), query = "") {
      const res = await session.post(`/client/login${query}`, {
        email,
        password: FIXTURE_PASSWORD,
        ...fields,
      });
      return { s: session, res };
    },
    async signedIn(input) {
      const id = await createAccount(accounts.db(), input);
      const { s, res } = await accounts.signIn(input.email);
      expect(location(res)).toBe(input.role === "admin" ? "/admin/dashboard" : "/client/dashboard");
      return { id, session: s };
    },
  };
  return accounts;
}

export interface BackOfficeRecords {
  clientId: string;
  order: FixtureOrder;
  service: typeof services.$inferSelect;
  message: typeof contactMessages.$inferSelect;
}

/** What the back office's gate is tried on: the client's order and invoice, a service, a contact message. */
export async function backOfficeRecords(db: Database, clientId: string): Promise<BackOfficeRecords> {
  const order = await createOrder(db, clientId);
  const [service] = await db.select().from(services).limit(1);
  const [message] = await db
    .insert(contactMessages)
    .values({ name: "Vi", email: "vi@example.com", subject: "Hi", message: "Hello there", source: "site" })
    .returning();
  return { clientId, order, service: service!, message: message! };
}

/** Every back-office page, the ones of those records included. */
export function backOfficePages({ clientId, order, service, message }: BackOfficeRecords): string[] {
  return [
    "/admin",
    "/admin/dashboard",
    "/admin/orders",
    `/admin/orders/${order.orderId}`,
    "/admin/invoices",
    `/admin/invoices/${order.invoiceId}`,
    "/admin/messages",
    `/admin/messages/${message.id}`,
    "/admin/clients",
    `/admin/clients/${clientId}`,
    "/admin/catalogue",
    `/admin/catalogue/${service.id}`,
    "/admin/plans",
    "/admin/plans/new",
    "/admin/audit",
  ];
}
