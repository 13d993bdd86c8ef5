/**
 * The VAT a client is charged (issue 40, items 2 and 3): the treatment for their billing country and VAT
 * number as saved, decided before a price is shown and again when the invoice is issued, so both agree.
 *
 * With `ask`, a number that matters (an EU seller at its standard rate, a buyer in another member state)
 * is asked of VIES again before it is used: when it is not yet confirmed, or when no invoice has carried
 * it yet and the last answer is more than an hour old (so a number entered a minute ago is not asked
 * twice). A refusal now stands (VAT is charged); VIES being down keeps an earlier confirmation, and
 * leaves an unconfirmed number unconfirmed (VAT charged as for a consumer, and the invoice says so).
 */
import { and, eq, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { clients, invoices } from "~/db/schema";
import { confirmBuyerVat } from "./buyer-vat.server";
import { type DocumentTax, documentTax } from "./document-tax";
import { decideTaxTreatment, type SellerTaxMode, type VatNumberStatus } from "./treatment";
import { isEuCountry } from "./vat-numbers";
import type { ViesDeps } from "./vies.server";

export interface ClientTaxDeps {
  db: Database;
  mode: SellerTaxMode;
  vies: ViesDeps;
  now?: () => Date;
}

/** What the tax of a sale is read from: the runtime's config (a test's may leave `tax` out: the flat rate). */
export interface TaxConfig {
  invoices: { taxRatePercent: number };
  tax?: { mode: SellerTaxMode; viesUrl: string };
}

/**
 * The treatment of a sale to `clientId` (null: a visitor not signed in, priced as a buyer at home) under
 * the configured mode; `ask` re-asks VIES first where it is due (see above).
 */
export async function taxForClient(
  db: Database,
  config: TaxConfig,
  clientId: string | null,
  options: { ask: boolean; now?: () => Date } = { ask: false },
): Promise<DocumentTax> {
  const mode = config.tax?.mode ?? { kind: "flat", ratePercent: config.invoices.taxRatePercent };
  if (!clientId)
    return documentTax(decideTaxTreatment(mode, { country: null, vatNumber: null, vatStatus: null }));
  const deps: ClientTaxDeps = {
    db,
    mode,
    vies: { url: config.tax?.viesUrl ?? "" },
    ...(options.now ? { now: options.now } : {}),
  };
  return clientTax(deps, clientId, { ask: options.ask });
}

/** Whether a sale needs the client's billing country first: an EU seller's VAT follows the buyer's country. */
export async function billingCountryNeeded(
  db: Database,
  config: TaxConfig,
  clientId: string,
): Promise<boolean> {
  if (!config.tax || config.tax.mode.kind === "flat") return false;
  const [row] = await db
    .select({ countryCode: clients.countryCode })
    .from(clients)
    .where(eq(clients.id, clientId))
    .limit(1);
  return !row?.countryCode;
}

const RECHECK_AFTER_MS = 60 * 60 * 1000;

async function usedOnAnInvoice(db: Database, clientId: string, number: string): Promise<boolean> {
  const [row] = await db
    .select({ id: invoices.id })
    .from(invoices)
    .where(and(eq(invoices.clientId, clientId), sql`${invoices.tax}->>'buyerVatNumber' = ${number}`))
    .limit(1);
  return row !== undefined;
}

export async function clientTax(
  deps: ClientTaxDeps,
  clientId: string,
  options: { ask: boolean } = { ask: false },
): Promise<DocumentTax> {
  const [client] = await deps.db
    .select({
      countryCode: clients.countryCode,
      taxId: clients.taxId,
      vatStatus: clients.vatStatus,
      vatCheckedNumber: clients.vatCheckedNumber,
      vatCheckedAt: clients.vatCheckedAt,
    })
    .from(clients)
    .where(eq(clients.id, clientId))
    .limit(1);
  const taxId = client?.taxId?.trim() || null;
  let status: VatNumberStatus | null =
    client && taxId && client.vatCheckedNumber === taxId ? client.vatStatus : null;
  const { mode } = deps;
  const country = client?.countryCode ?? null;
  const matters =
    mode.kind === "eu-standard" && taxId !== null && isEuCountry(country) && country !== mode.country;
  if (options.ask && matters && client) {
    const now = deps.now?.() ?? new Date();
    const stale = !client.vatCheckedAt || now.getTime() - client.vatCheckedAt.getTime() > RECHECK_AFTER_MS;
    const due = status !== "valid" || (stale && !(await usedOnAnInvoice(deps.db, clientId, taxId)));
    if (due) status = await askAgain(deps, clientId, { taxId, country, status, now });
  }
  const treatment = decideTaxTreatment(mode, { country, vatNumber: taxId, vatStatus: status });
  return documentTax(treatment, treatment.category === "S" && status === "unconfirmed");
}

async function askAgain(
  deps: ClientTaxDeps,
  clientId: string,
  was: { taxId: string; country: string | null; status: VatNumberStatus | null; now: Date },
): Promise<VatNumberStatus | null> {
  const outcome = await confirmBuyerVat(
    { mode: deps.mode, vies: deps.vies },
    { taxId: was.taxId, countryCode: was.country },
    { vatCheckedNumber: null, vatStatus: null, vatCheckedAt: null, vatRequestId: null },
  );
  if (outcome.kind === "not-asked") return was.status;
  if (outcome.kind === "refused") {
    await deps.db
      .update(clients)
      .set({ vatStatus: "invalid", vatCheckedNumber: was.taxId, vatCheckedAt: was.now, vatRequestId: null })
      .where(eq(clients.id, clientId));
    return "invalid";
  }
  // VIES down: an earlier confirmation stands, an unconfirmed number stays so.
  if (outcome.status === "unconfirmed") {
    if (was.status === "valid") return "valid";
    await deps.db
      .update(clients)
      .set({ vatStatus: "unconfirmed", vatCheckedNumber: was.taxId })
      .where(eq(clients.id, clientId));
    return "unconfirmed";
  }
  await deps.db
    .update(clients)
    .set({
      vatStatus: "valid",
      vatCheckedNumber: was.taxId,
      vatCheckedAt: outcome.checkedAt ?? was.now,
      vatRequestId: outcome.requestId,
    })
    .where(eq(clients.id, clientId));
  return "valid";
}
