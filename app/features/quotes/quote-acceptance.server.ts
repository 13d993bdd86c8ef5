/**
 * The client's decision (issue "quotes"): accepting a sent, unexpired quote makes its order and first
 * invoice in one transaction; declining tells the owner.
 */

import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Tx } from "~/db/client.server";
import { clients, type Invoice, quotes } from "~/db/schema";
import { type Actor, recordAudit } from "~/features/audit/audit.server";
import type { InvoicePrice } from "~/features/invoices/invoices.server";
import { publishLiveEvent } from "~/features/live/live-events.server";
import { formatMoney } from "~/features/money/format";
import { createOrder } from "~/features/orders/create-order.server";
import { hasNoNul, invalidCharacterMessage } from "~/features/security/text";
import { readDocumentTax } from "~/features/tax/document-tax";
import { BUSINESS_TIME_ZONE, formatMoment } from "~/ui/format";
import type { QuoteDeps, QuoteResult } from "./quote-deps.server";
import { tellOwner } from "./quote-notices.server";
import { cents, depositSplit, dollars, type InvoiceSplit } from "./quote-pricing";
import { clientScope } from "./quote-queries.server";
import { notAccountName, notCompanySigner, signsAs } from "./quote-signature";
import { isAcceptable, shownQuoteStatus } from "./quote-status";

const personName = (what: string) =>
  z
    .string()
    .trim()
    .max(200, { message: `${what} must be at most 200 characters.` })
    .refine(hasNoNul, { message: invalidCharacterMessage(what, true) });

/**
 * The accept form: the terms ticked and the signature, the signer's full name (issue 37, item 9). For a
 * company (`forCompany`), its name and the name of the person signing for it, whom the signature names.
 */
export const acceptInput = z
  .object({
    terms: z.literal("on", { message: "Tick the box to accept the terms." }),
    signature: personName("The name").pipe(
      z.string().min(2, { message: "Type your full name as your signature." }),
    ),
    forCompany: z.literal("on").optional(),
    company: personName("The company's name").optional(),
    signer: personName("The signer's name").optional(),
  })
  .superRefine((v, ctx) => {
    if (!v.forCompany) return;
    if (!v.company)
      ctx.addIssue({
        code: "custom",
        path: ["company"],
        message: "Name the company you accept the quote for.",
      });
    if (!v.signer || v.signer.length < 2)
      ctx.addIssue({
        code: "custom",
        path: ["signer"],
        message: "Type the full name of the person signing for the company.",
      });
  });

/**
 * Whose name the signature must be: the account's, or the company signer's typed beside it; the refusal
 * when it is not (null: it is).
 */
export function signatureProblem(input: z.infer<typeof acceptInput>, accountName: string): string | null {
  if (input.forCompany && input.company && input.signer)
    return signsAs(input.signature, input.signer) ? null : notCompanySigner(input.signer, input.company);
  return signsAs(input.signature, accountName) ? null : notAccountName(accountName);
}

/** An invoice's price from a part of a quote's split (the deposit, the balance or the whole). */
export const invoicePrice = (
  split: InvoiceSplit,
  quote: { taxRatePercent: number; tax: unknown },
): InvoicePrice => ({
  currency: "USD",
  subtotal: dollars(split.subtotalCents),
  taxRatePercent: quote.taxRatePercent,
  tax: readDocumentTax(quote.tax, quote.taxRatePercent),
  taxAmount: dollars(split.taxCents),
  total: dollars(split.totalCents),
  totalUsd: dollars(split.totalCents),
  exchangeRate: 1,
});

/**
 * Accepts a sent, unexpired quote for the signed-in client, once: the order and its first invoice (the
 * deposit, or all of it) in the same transaction. Accepting twice finds the quote accepted and answers
 * with the same order and invoice.
 */
export async function acceptQuote(
  deps: QuoteDeps,
  client: { id: string; email: string },
  id: string,
  raw: unknown,
  meta: { ip: string | null; userAgent: string | null; now?: Date },
): Promise<QuoteResult<{ orderId: string; invoiceId: string }>> {
  const parsed = acceptInput.safeParse(raw);
  if (!parsed.success)
    return { ok: false, status: 400, error: parsed.error.issues[0]?.message ?? "Invalid acceptance." };
  const now = meta.now ?? new Date();
  return deps.db.transaction(async (tx): Promise<QuoteResult<{ orderId: string; invoiceId: string }>> => {
    const [quote] = await tx
      .select()
      .from(quotes)
      .where(and(eq(quotes.id, id), clientScope(client), sql`${quotes.status} <> 'draft'`))
      .for("update")
      .limit(1);
    if (!quote) return { ok: false, status: 404, error: "Quote not found." };
    if (quote.status === "accepted" && quote.orderId) {
      const first = await firstInvoice(tx, quote.orderId);
      return {
        ok: true,
        orderId: quote.orderId,
        invoiceId: first!.id,
        message: `Quote ${quote.quoteNumber} is accepted.`,
      };
    }
    if (!isAcceptable(quote.status, quote.validUntil, now)) {
      const why =
        shownQuoteStatus(quote, now) === "expired"
          ? `it expired on ${quote.validUntil}`
          : quote.status === "superseded"
            ? "a revised quote replaces it"
            : `it is ${quote.status}`;
      return { ok: false, status: 409, error: `Quote ${quote.quoteNumber} cannot be accepted: ${why}.` };
    }
    // The signature names the signer: the account's own name (read here, never posted), or the company's
    // signer typed beside it.
    const [account] = await tx.select({ name: clients.name }).from(clients).where(eq(clients.id, client.id));
    const unsigned = signatureProblem(parsed.data, account?.name ?? "");
    if (unsigned) return { ok: false, status: 400, error: unsigned };
    const forCompany = parsed.data.forCompany ? (parsed.data.company ?? null) : null;
    const amounts = { taxCents: cents(quote.taxUsd), totalCents: cents(quote.totalUsd) };
    const split = depositSplit(amounts, quote.depositPercent);
    const preTaxCents = amounts.totalCents - amounts.taxCents;
    // No checkout token: createOrder never finds a repeat here (one order per quote is the quote's lock).
    const { order, invoice } = (await createOrder(tx, deps.config, {
      order: {
        clientId: client.id,
        serviceId: null,
        serviceName: `Custom work (${quote.quoteNumber})`,
        serviceCategory: "Custom",
        package: "quote",
        packageName: `Quote ${quote.quoteNumber}`,
        quantity: 1,
        unitPriceUsd: dollars(preTaxCents),
        amountUsd: dollars(preTaxCents),
        currency: "USD",
        amountInCurrency: dollars(preTaxCents),
        exchangeRate: 1,
        quoteId: quote.id,
      },
      invoicePrice: invoicePrice(split.first, quote),
      invoiceKind: split.balance ? "deposit" : "full",
      now,
    }))!;
    await tx
      .update(quotes)
      .set({
        status: "accepted",
        clientId: client.id,
        acceptedAt: now,
        acceptedName: parsed.data.signature,
        acceptedForCompany: forCompany,
        acceptedIp: meta.ip,
        acceptedUserAgent: meta.userAgent?.slice(0, 500) ?? null,
        orderId: order.id,
      })
      .where(eq(quotes.id, quote.id));
    await publishLiveEvent(tx, { userId: client.id, kind: "quote", entityId: quote.id, status: "accepted" });
    const actor: Actor = { id: client.id, email: client.email };
    await recordAudit(tx, actor, {
      action: "quote.accept",
      entity: "quote",
      entityId: quote.id,
      after: {
        signature: parsed.data.signature,
        forCompany,
        ip: meta.ip,
        orderId: order.id,
        invoiceId: invoice.id,
      },
    });
    await tellOwner(
      tx,
      deps,
      quote,
      `Quote ${quote.quoteNumber} accepted`,
      [
        `${parsed.data.signature}${forCompany ? ` (for ${forCompany})` : ""} accepted quote ${quote.quoteNumber} (${formatMoney(quote.totalUsd, "USD")}) on ${formatMoment(now, BUSINESS_TIME_ZONE)}.`,
        `Invoice ${invoice.invoiceNumber} for ${formatMoney(invoice.totalAmount, "USD")} was issued${split.balance ? " for the deposit" : ""}.`,
      ],
      "accepted",
    );
    return {
      ok: true,
      orderId: order.id,
      invoiceId: invoice.id,
      message: `Quote ${quote.quoteNumber} is accepted. Invoice ${invoice.invoiceNumber} is ready to pay.`,
    };
  });
}

export const declineInput = z.object({
  reason: z
    .string()
    .trim()
    .max(1000, { message: "The reason must be at most 1000 characters." })
    .refine(hasNoNul, { message: invalidCharacterMessage("The reason", true) })
    .optional()
    .transform((v) => v || null),
});

/** Declines a sent quote (with an optional reason); the owner is told. */
export async function declineQuote(
  deps: QuoteDeps,
  client: { id: string; email: string },
  id: string,
  raw: unknown,
  now = new Date(),
): Promise<QuoteResult> {
  const parsed = declineInput.safeParse(raw);
  if (!parsed.success)
    return { ok: false, status: 400, error: parsed.error.issues[0]?.message ?? "Invalid reason." };
  return deps.db.transaction(async (tx): Promise<QuoteResult> => {
    const [quote] = await tx
      .select()
      .from(quotes)
      .where(and(eq(quotes.id, id), clientScope(client), sql`${quotes.status} <> 'draft'`))
      .for("update")
      .limit(1);
    if (!quote) return { ok: false, status: 404, error: "Quote not found." };
    if (!isAcceptable(quote.status, quote.validUntil, now))
      return {
        ok: false,
        status: 409,
        error: `Quote ${quote.quoteNumber} is ${shownQuoteStatus(quote, now)}.`,
      };
    await tx
      .update(quotes)
      .set({ status: "declined", declinedAt: now, declineReason: parsed.data.reason, clientId: client.id })
      .where(eq(quotes.id, id));
    await publishLiveEvent(tx, { userId: client.id, kind: "quote", entityId: id, status: "declined" });
    await recordAudit(
      tx,
      { id: client.id, email: client.email },
      {
        action: "quote.decline",
        entity: "quote",
        entityId: id,
        after: { reason: parsed.data.reason },
      },
    );
    await tellOwner(
      tx,
      deps,
      quote,
      `Quote ${quote.quoteNumber} declined`,
      [
        `${quote.name} declined quote ${quote.quoteNumber}.`,
        ...(parsed.data.reason ? [`Reason: ${parsed.data.reason}`] : []),
      ],
      "declined",
    );
    return { ok: true, id, message: `Quote ${quote.quoteNumber} is declined.` };
  });
}

async function firstInvoice(tx: Tx, orderId: string): Promise<Invoice | null> {
  const rows = await tx.execute(
    sql`select id from invoices where order_id = ${orderId} and kind <> 'balance' limit 1`,
  );
  const id = (rows as unknown as { rows: Array<{ id: string }> }).rows[0]?.id;
  return id ? ({ id } as Invoice) : null;
}
