/**
 * The owner's draft (issue "quotes"): saved with its lines priced by the server, its amounts computed
 * from them; a sent quote is revised as a new draft that supersedes it once sent.
 */

import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "~/db/client.server";
import { clients, type Quote, type QuoteLine, quotes, services } from "~/db/schema";
import { recordAudit } from "~/features/audit/audit.server";
import { parseAmountInput } from "~/features/money/minor-units";
import { taxForClient } from "~/features/tax/client-tax.server";
import type { QuoteDeps, QuoteResult } from "./quote-deps.server";
import { dollars, quoteAmounts } from "./quote-pricing";
import { quotableClient } from "./quote-queries.server";

export const QUOTE_LIMITS = { lines: 50, description: 500, terms: 10_000, quantity: 100_000 } as const;
/** The largest subtotal or total of a quote, in cents ($100 billion: well inside numeric(14, 2)). */
const QUOTE_MAX_CENTS = 1e13;

const lineInput = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("catalogue"),
    serviceId: z.uuid({ message: "Choose a service for each catalogue line." }),
    package: z.string().trim().min(1).max(60),
    quantity: z.coerce.number().int().min(1).max(QUOTE_LIMITS.quantity),
  }),
  z.object({
    kind: z.literal("free"),
    description: z
      .string()
      .trim()
      .min(1, { message: "Describe each free line." })
      .max(QUOTE_LIMITS.description),
    quantity: z.coerce.number().int().min(1).max(QUOTE_LIMITS.quantity),
    /** As typed, read exactly in USD. */
    unitPrice: z.string().trim().min(1, { message: "Price each free line." }).max(20),
  }),
]);

export const draftInput = z.object({
  requestId: z.uuid().nullish(),
  clientId: z.string().trim().min(1).max(64).nullish(),
  name: z.string().trim().min(1, { message: "Say who the quote is for." }).max(100),
  email: z.email({ message: "Enter the recipient's email address." }).max(254),
  company: z
    .string()
    .trim()
    .max(200)
    .nullish()
    .transform((v) => v || null),
  lines: z
    .array(lineInput)
    .min(1, { message: "Add at least one line." })
    .max(QUOTE_LIMITS.lines, { message: `At most ${QUOTE_LIMITS.lines} lines.` }),
  discount: z
    .string()
    .trim()
    .max(20)
    .optional()
    .transform((v) => v || "0"),
  depositPercent: z.coerce
    .number()
    .int()
    .min(1, { message: "A deposit is between 1 and 99 percent." })
    .max(99, { message: "A deposit is between 1 and 99 percent." })
    .nullish(),
  validUntil: z.iso.date({ message: "Enter the date the quote is valid until." }),
  terms: z.string().trim().min(1, { message: "Write the terms the client accepts." }).max(QUOTE_LIMITS.terms),
});
export type DraftInput = z.input<typeof draftInput>;

/** The lines priced by the server: catalogue lines from the catalogue now, free lines as typed. */
async function priceLines(
  db: Database,
  input: z.infer<typeof draftInput>["lines"],
): Promise<{ ok: true; lines: QuoteLine[] } | { ok: false; error: string }> {
  const lines: QuoteLine[] = [];
  for (const line of input) {
    if (line.kind === "free") {
      const price = parseAmountInput(line.unitPrice, "USD");
      if (!price.ok) return { ok: false, error: `${line.description}: ${price.error}` };
      lines.push({
        kind: "free",
        description: line.description,
        quantity: line.quantity,
        unitPriceUsd: dollars(price.minor),
      });
      continue;
    }
    const [service] = await db.select().from(services).where(eq(services.id, line.serviceId)).limit(1);
    // The package's own price only ("constructor" or "__proto__" name none).
    const unit =
      service && Object.hasOwn(service.pricing, line.package) ? service.pricing[line.package] : undefined;
    if (!service || typeof unit !== "number")
      return { ok: false, error: "A catalogue line names a package the catalogue does not have." };
    lines.push({
      kind: "catalogue",
      serviceId: service.id,
      serviceName: service.name,
      package: line.package,
      packageName: service.packageNames[line.package] ?? line.package,
      quantity: line.quantity,
      unitPriceUsd: unit,
    });
  }
  return { ok: true, lines };
}

/** Saving a quote for a client whose account email is not the quote's (issue 35, item 5). */
export function quoteEmailMismatch(clientEmail: string, quoteEmail: string): string {
  return `This client's account email is ${clientEmail}, not ${quoteEmail}: a quote for a client goes to their account's email. Change the email, or save the quote without the client.`;
}

/** A draft as it would be saved: its recipient, its lines priced by the server, its amounts. */
export type PricedDraft = Pick<
  Quote,
  | "requestId"
  | "clientId"
  | "name"
  | "email"
  | "company"
  | "lines"
  | "subtotalUsd"
  | "discountUsd"
  | "taxRatePercent"
  | "tax"
  | "taxUsd"
  | "totalUsd"
  | "depositPercent"
  | "validUntil"
  | "terms"
>;

/**
 * A draft checked and priced, nothing written: what `saveDraft` saves, and what the editor's preview
 * shows before sending (issue 37, item 9).
 */
export async function priceDraft(
  deps: Pick<QuoteDeps, "db" | "config">,
  raw: unknown,
): Promise<{ ok: true; draft: PricedDraft } | { ok: false; status: number; error: string }> {
  const parsed = draftInput.safeParse(raw);
  if (!parsed.success)
    return { ok: false, status: 400, error: parsed.error.issues[0]?.message ?? "Invalid quote." };
  const input = parsed.data;
  const priced = await priceLines(deps.db, input.lines);
  if (!priced.ok) return { ok: false, status: 400, error: priced.error };
  const discount = parseAmountInput(input.discount === "0" ? "0.00" : input.discount, "USD");
  const discountCents = input.discount === "0" ? 0 : discount.ok ? discount.minor : -1;
  if (discountCents < 0)
    return { ok: false, status: 400, error: `Discount: ${(discount as { error: string }).error}` };
  let clientId = input.clientId ?? null;
  if (clientId) {
    const [c] = await deps.db
      .select({ id: clients.id, email: clients.email })
      .from(clients)
      .where(and(eq(clients.id, clientId), quotableClient()))
      .limit(1);
    if (!c) return { ok: false, status: 400, error: "No such client." };
    // A quote is sent to its email and shown to its client: they are one person or it is refused, so a
    // request naming someone else's address (or a client picked by mistake) never joins the two.
    if (c.email.toLowerCase() !== input.email.toLowerCase())
      return { ok: false, status: 400, error: quoteEmailMismatch(c.email, input.email) };
  } else {
    // A requester who has a verified account is that client.
    const [c] = await deps.db
      .select({ id: clients.id })
      .from(clients)
      .where(and(sql`lower(${clients.email}) = ${input.email.toLowerCase()}`, quotableClient()))
      .limit(1);
    clientId = c?.id ?? null;
  }
  // The VAT the client's invoices will carry (issue 40); a requester without an account: as at home.
  const tax = await taxForClient(deps.db, deps.config, clientId);
  const taxRate = tax.ratePercent;
  const amounts = quoteAmounts(priced.lines, dollars(discountCents), taxRate);
  if (discountCents > amounts.subtotalCents)
    return { ok: false, status: 400, error: "The discount is more than the lines add up to." };
  // What the amount columns (numeric(14, 2)) and an invoice can hold.
  if (amounts.subtotalCents > QUOTE_MAX_CENTS || amounts.totalCents > QUOTE_MAX_CENTS)
    return { ok: false, status: 400, error: "The quote adds up to more than one quote can hold." };
  return {
    ok: true,
    draft: {
      requestId: input.requestId ?? null,
      clientId,
      name: input.name,
      email: input.email,
      company: input.company,
      lines: priced.lines,
      subtotalUsd: dollars(amounts.subtotalCents),
      discountUsd: dollars(amounts.discountCents),
      taxRatePercent: taxRate,
      tax,
      taxUsd: dollars(amounts.taxCents),
      totalUsd: dollars(amounts.totalCents),
      depositPercent: input.depositPercent ?? null,
      validUntil: input.validUntil,
      terms: input.terms,
    },
  };
}

/**
 * Saves a draft (new, or an existing draft replaced): its lines priced by the server, its amounts
 * computed from them. A sent quote is never edited: `revise` makes a new draft that supersedes it.
 */
export async function saveDraft(deps: QuoteDeps, id: string | null, raw: unknown): Promise<QuoteResult> {
  const priced = await priceDraft(deps, raw);
  if (!priced.ok) return priced;
  const values = priced.draft;
  return deps.db.transaction(async (tx): Promise<QuoteResult> => {
    if (id) {
      const [row] = await tx.select().from(quotes).where(eq(quotes.id, id)).for("update").limit(1);
      if (!row) return { ok: false, status: 404, error: "Quote not found." };
      if (row.status !== "draft")
        return { ok: false, status: 409, error: `Quote ${row.quoteNumber} was sent: revise it instead.` };
      await tx.update(quotes).set(values).where(eq(quotes.id, id));
      await recordAudit(tx, deps.actor, {
        action: "quote.draft",
        entity: "quote",
        entityId: id,
        after: { totalUsd: values.totalUsd },
      });
      return { ok: true, id, message: "The draft is saved." };
    }
    const [made] = await tx
      .insert(quotes)
      .values({ ...values, createdBy: deps.actor.email })
      .returning({ id: quotes.id });
    await recordAudit(tx, deps.actor, {
      action: "quote.draft",
      entity: "quote",
      entityId: made!.id,
      after: { totalUsd: values.totalUsd },
    });
    return { ok: true, id: made!.id, message: "The draft is saved." };
  });
}

/** A new draft copying a sent quote, which it supersedes once sent. */
export async function reviseQuote(deps: QuoteDeps, id: string): Promise<QuoteResult> {
  return deps.db.transaction(async (tx): Promise<QuoteResult> => {
    const [row] = await tx.select().from(quotes).where(eq(quotes.id, id)).limit(1);
    if (!row) return { ok: false, status: 404, error: "Quote not found." };
    if (row.status !== "sent")
      return { ok: false, status: 409, error: "Only a sent quote that is still open can be revised." };
    const { id: _id, quoteNumber, quoteYear, quoteSeq, sentAt, createdAt, updatedAt, ...copy } = row;
    const [made] = await tx
      .insert(quotes)
      .values({ ...copy, status: "draft", supersedesId: row.id, createdBy: deps.actor.email })
      .returning({ id: quotes.id });
    await recordAudit(tx, deps.actor, {
      action: "quote.revise",
      entity: "quote",
      entityId: made!.id,
      after: { supersedes: quoteNumber },
    });
    return { ok: true, id: made!.id, message: `A revision of ${quoteNumber} is ready to edit.` };
  });
}
