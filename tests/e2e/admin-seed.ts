/**
 * Back-office browser tests need a client's orders and invoices, which only the purchase flow makes.
 * PGlite lets one process open its folder, so global-setup calls this before it starts the server: the
 * built app migrates and seeds the fresh database, then the fixtures are written into it.
 */
import { createAccount, createOrder } from "../support/admin-fixtures";
import { loadBuild } from "../support/server";

export interface AdminE2eFixtures {
  adminEmail: string;
  /** A client whose order is in progress, for the admin to complete. */
  completeOrder: { clientEmail: string; orderId: string };
  /** A client with an unpaid invoice, for the admin to mark paid. */
  unpaidInvoice: { clientEmail: string; invoiceNumber: string; invoiceId: string };
}

export const ADMIN_FIXTURES_ENV = "PORTICO_E2E_ADMIN_FIXTURES";

export async function seedAdminFixtures(env: Record<string, string | undefined>): Promise<void> {
  const build = await loadBuild();
  const portico = await build.startPortico({ ...env, LOG_LEVEL: "silent" });
  try {
    const db = portico.runtime.database.db;
    const adminEmail = "e2e-admin@example.com";
    await createAccount(db, { email: adminEmail, name: "E2E Owner", role: "admin" });
    const c1 = await createAccount(db, { email: "e2e-complete@example.com", name: "Clara Complete" });
    const o1 = await createOrder(db, c1, { status: "in_progress" });
    const c2 = await createAccount(db, { email: "e2e-invoice@example.com", name: "Ivan Invoice" });
    const o2 = await createOrder(db, c2, { serviceSlug: "hosting-support" });
    const fixtures: AdminE2eFixtures = {
      adminEmail,
      completeOrder: { clientEmail: "e2e-complete@example.com", orderId: o1.orderId },
      unpaidInvoice: {
        clientEmail: "e2e-invoice@example.com",
        invoiceNumber: o2.invoiceNumber,
        invoiceId: o2.invoiceId,
      },
    };
    process.env[ADMIN_FIXTURES_ENV] = JSON.stringify(fixtures);
  } finally {
    await portico.close();
  }
}

export function adminFixtures(): AdminE2eFixtures {
  const raw = process.env[ADMIN_FIXTURES_ENV];
  if (!raw) throw new Error(`${ADMIN_FIXTURES_ENV} is not set: run through \`npm run test:e2e\`.`);
  return JSON.parse(raw) as AdminE2eFixtures;
}
