/**
 * Quotes (issue "quotes"): the owner writes a draft, sends it (numbered `Q-{year}-{seq}` then, from a
 * gap-free counter, and frozen by a trigger), revises it (a new quote that supersedes it when sent); the
 * client accepts it (terms ticked, full name typed as signature, stored with the time and address) or
 * declines it. Accepting makes the work real in one transaction: the order (one per quote: a unique
 * index) and its first invoice (the deposit, or the whole amount); the balance invoice is issued when
 * the owner completes the order. Every amount is the server's, from the catalogue and the owner's lines.
 */
import { and, desc, eq, isNull, or, sql } from "drizzle-orm";
import { z } from "zod";
import type { Config } from "~/config.server";
import type { Database, Tx } from "~/db/client.server";
import {
  clients,
  type Invoice,
  type Order,
  type Quote,
  type QuoteLine,
  quoteCounters,
  quoteRequests,
  quotes,
  services,
} from "~/db/schema";
import { type Actor, type ChangeDeps, recordAudit } from "~/features/audit/audit.server";
import { sellerSnapshot } from "~/features/invoices/invoice-parties";
import { createInvoiceForOrder, type InvoicePrice } from "~/features/invoices/invoices.server";
import { publishLiveEvent } from "~/features/live/live-events.server";
import { enqueueEmail } from "~/features/mail/mail.server";
import { noticeEmail } from "~/features/mail/notice-email.server";
import { formatMoney } from "~/features/money/format";
import { parseAmountInput } from "~/features/money/minor-units";
import { raiseNotification } from "~/features/notifications/notifications.server";
import { createOrder } from "~/features/orders/create-order.server";
import { notifyOwners, publishToOwners } from "~/features/orders/order-access.server";
import { hasNoNul, invalidCharacterMessage } from "~/features/security/text";
import {
  cents,
  depositSplit,
  dollars,
  type InvoiceSplit,
  quoteAmounts,
  quoteNumberFor,
} from "./quote-pricing";
import { isAcceptable, quoteDay, shownQuoteStatus } from "./quote-status";
import { expiredSentQuoteSql } from "./quote-status.server";

export const QUOTE_LIMITS = { lines: 50, description: 500, terms: 10_000, quantity: 100_000 } as const;
/** The largest subtotal or total of a quote, in cents ($100 billion: well inside numeric(14, 2)). */
const QUOTE_MAX_CENTS = 1e13;

/** A change to quotes: the audit's deps, with the invoice rules (tax rate, due days). */
export interface QuoteDeps extends Omit<ChangeDeps, "config"> {
  config: Pick<Config, "business" | "publicUrl" | "invoices">;
}

export type QuoteResult<T = { id: string }> =
  | ({ ok: true; message: string } & T)
  | { ok: false; status: number; error: string };

export const clientQuotePath = (id: string) => `/client/quotes/${id}`;
export const adminQuotePath = (id: string) => `/admin/quotes/${id}`;

// ---------------------------------------------------------------------------------------------------
// The owner's draft
// ---------------------------------------------------------------------------------------------------

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

/**
 * Saves a draft (new, or an existing draft replaced): its lines priced by the server, its amounts
 * computed from them. A sent quote is never edited: `revise` makes a new draft that supersedes it.
 */
export async function saveDraft(deps: QuoteDeps, id: string | null, raw: unknown): Promise<QuoteResult> {
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
  const taxRate = deps.config.invoices.taxRatePercent;
  const amounts = quoteAmounts(priced.lines, dollars(discountCents), taxRate);
  if (discountCents > amounts.subtotalCents)
    return { ok: false, status: 400, error: "The discount is more than the lines add up to." };
  // What the amount columns (numeric(14, 2)) and an invoice can hold.
  if (amounts.subtotalCents > QUOTE_MAX_CENTS || amounts.totalCents > QUOTE_MAX_CENTS)
    return { ok: false, status: 400, error: "The quote adds up to more than one quote can hold." };
  let clientId = input.clientId ?? null;
  if (clientId) {
    const [c] = await deps.db
      .select({ id: clients.id, email: clients.email })
      .from(clients)
      .where(eq(clients.id, clientId))
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
      .where(sql`lower(${clients.email}) = ${input.email.toLowerCase()}`)
      .limit(1);
    clientId = c?.id ?? null;
  }
  const values = {
    requestId: input.requestId ?? null,
    clientId,
    name: input.name,
    email: input.email,
    company: input.company,
    lines: priced.lines,
    subtotalUsd: dollars(amounts.subtotalCents),
    discountUsd: dollars(amounts.discountCents),
    taxRatePercent: taxRate,
    taxUsd: dollars(amounts.taxCents),
    totalUsd: dollars(amounts.totalCents),
    depositPercent: input.depositPercent ?? null,
    validUntil: input.validUntil,
    terms: input.terms,
  };
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

async function nextQuoteSeq(tx: Tx, year: number): Promise<number> {
  const [row] = await tx
    .insert(quoteCounters)
    .values({ year, lastSeq: 1 })
    .onConflictDoUpdate({ target: quoteCounters.year, set: { lastSeq: sql`${quoteCounters.lastSeq} + 1` } })
    .returning({ seq: quoteCounters.lastSeq });
  return row!.seq;
}

/** Tells the client (bell, live update, email), or the requester without an account (email). */
async function tellClient(
  tx: Tx,
  deps: Pick<QuoteDeps, "config">,
  quote: Pick<Quote, "id" | "clientId" | "email" | "name">,
  text: { title: string; message: string; subject: string; lines: string[] },
) {
  if (quote.clientId) {
    await raiseNotification(tx, quote.clientId, {
      title: text.title,
      message: text.message,
      type: "info",
      href: clientQuotePath(quote.id),
    });
    await publishLiveEvent(tx, { userId: quote.clientId, kind: "quote", entityId: quote.id });
  }
  await enqueueEmail(tx, {
    kind: "quote",
    to: quote.email,
    ...noticeEmail({
      business: deps.config.business,
      publicUrl: deps.config.publicUrl,
      subject: text.subject,
      greetingName: quote.name,
      lines: text.lines,
      link: quote.clientId
        ? { path: clientQuotePath(quote.id), label: "Open the quote" }
        : { path: "/client/register", label: "Create your account to see the quote" },
    }),
  });
}

/** Tells the owner (bell, live update, email): an acceptance, a decline, an expiry. */
async function tellOwner(
  tx: Tx,
  deps: Pick<QuoteDeps, "config">,
  quote: Quote,
  subject: string,
  lines: string[],
  status: "accepted" | "declined" | "expired",
) {
  await publishToOwners(tx, { kind: "quote", entityId: quote.id, status });
  await notifyOwners(tx, {
    title: subject,
    message: lines[0] ?? subject,
    type: status === "accepted" ? "success" : "info",
    href: adminQuotePath(quote.id),
  });
  await enqueueEmail(tx, {
    kind: "quote-owner",
    to: deps.config.business.email,
    ...noticeEmail({
      business: deps.config.business,
      publicUrl: deps.config.publicUrl,
      subject,
      greetingName: deps.config.business.name,
      lines,
      link: { path: adminQuotePath(quote.id), label: "Open the quote" },
    }),
  });
}

/** Sends a draft: its number, frozen from now on; the quote it revises becomes superseded. */
export async function sendQuote(deps: QuoteDeps, id: string, now = new Date()): Promise<QuoteResult> {
  return deps.db.transaction(async (tx): Promise<QuoteResult> => {
    const [row] = await tx.select().from(quotes).where(eq(quotes.id, id)).for("update").limit(1);
    if (!row) return { ok: false, status: 404, error: "Quote not found." };
    if (row.status !== "draft")
      return { ok: false, status: 409, error: `Quote ${row.quoteNumber} was already sent.` };
    if (row.lines.length === 0)
      return { ok: false, status: 409, error: "Add at least one line before sending." };
    if (row.validUntil < quoteDay(now))
      return { ok: false, status: 409, error: "The valid-until date has passed: change it before sending." };
    if (row.supersedesId) {
      const [old] = await tx
        .select()
        .from(quotes)
        .where(eq(quotes.id, row.supersedesId))
        .for("update")
        .limit(1);
      if (old && old.status !== "sent")
        return {
          ok: false,
          status: 409,
          error: `Quote ${old.quoteNumber} is ${old.status}: it cannot be revised any more.`,
        };
      if (old) {
        await tx.update(quotes).set({ status: "superseded" }).where(eq(quotes.id, old.id));
        if (old.clientId)
          await publishLiveEvent(tx, {
            userId: old.clientId,
            kind: "quote",
            entityId: old.id,
            status: "superseded",
          });
      }
    }
    const year = now.getUTCFullYear();
    const seq = await nextQuoteSeq(tx, year);
    const quoteNumber = quoteNumberFor(year, seq);
    await tx
      .update(quotes)
      .set({ quoteNumber, quoteYear: year, quoteSeq: seq, status: "sent", sentAt: now })
      .where(eq(quotes.id, id));
    if (row.requestId)
      await tx.update(quoteRequests).set({ status: "quoted" }).where(eq(quoteRequests.id, row.requestId));
    await recordAudit(tx, deps.actor, {
      action: "quote.send",
      entity: "quote",
      entityId: id,
      after: { quoteNumber, totalUsd: row.totalUsd },
    });
    const total = formatMoney(row.totalUsd, "USD");
    await tellClient(tx, deps, row, {
      title: "New Quote",
      message: `Quote ${quoteNumber} for ${total} is ready for you.`,
      subject: `Your quote ${quoteNumber}`,
      lines: [
        `Here is quote ${quoteNumber} for ${total}, valid until ${row.validUntil}.`,
        row.depositPercent
          ? `Accepting it asks for a deposit of ${row.depositPercent}%; the balance is invoiced when the work is complete.`
          : "Accepting it issues its invoice.",
      ],
    });
    return { ok: true, id, message: `Quote ${quoteNumber} was sent to ${row.email}.` };
  });
}

// ---------------------------------------------------------------------------------------------------
// The client's decision
// ---------------------------------------------------------------------------------------------------

/** A client's quotes: theirs, or sent to their (verified) address before they had an account. */
function clientScope(client: { id: string; email: string }) {
  return or(
    eq(quotes.clientId, client.id),
    and(isNull(quotes.clientId), sql`lower(${quotes.email}) = ${client.email.toLowerCase()}`),
  );
}

/** The quotes a client may see: sent or later (never a draft), newest first. */
export async function listClientQuotes(db: Database, client: { id: string; email: string }) {
  return db
    .select()
    .from(quotes)
    .where(and(clientScope(client), sql`${quotes.status} <> 'draft'`))
    .orderBy(desc(quotes.sentAt), desc(quotes.id))
    .limit(100);
}

export async function getClientQuote(db: Database, client: { id: string; email: string }, id: string) {
  const [row] = await db
    .select()
    .from(quotes)
    .where(and(eq(quotes.id, id), clientScope(client), sql`${quotes.status} <> 'draft'`))
    .limit(1);
  return row ?? null;
}

export const acceptInput = z.object({
  terms: z.literal("on", { message: "Tick the box to accept the terms." }),
  signature: z
    .string()
    .trim()
    .min(2, { message: "Type your full name as your signature." })
    .max(200, { message: "The name must be at most 200 characters." })
    .refine(hasNoNul, { message: invalidCharacterMessage("The name", true) }),
});

const invoicePrice = (split: InvoiceSplit, taxRatePercent: number): InvoicePrice => ({
  currency: "USD",
  subtotal: dollars(split.subtotalCents),
  taxRatePercent,
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
      invoicePrice: invoicePrice(split.first, quote.taxRatePercent),
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
      after: { signature: parsed.data.signature, ip: meta.ip, orderId: order.id, invoiceId: invoice.id },
    });
    await tellOwner(
      tx,
      deps,
      quote,
      `Quote ${quote.quoteNumber} accepted`,
      [
        `${parsed.data.signature} accepted quote ${quote.quoteNumber} (${formatMoney(quote.totalUsd, "USD")}) on ${now.toISOString()}.`,
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

/** Sent quotes past their valid-until day become expired; both sides are told. Returns how many. */
export async function expireQuotes(
  deps: Pick<QuoteDeps, "db" | "config">,
  now = new Date(),
): Promise<number> {
  return deps.db.transaction(async (tx) => {
    const expired = await tx
      .update(quotes)
      .set({ status: "expired", expiredAt: now })
      .where(expiredSentQuoteSql(now))
      .returning();
    const system: Actor = { id: null, email: "system" };
    for (const quote of expired) {
      await recordAudit(tx, system, { action: "quote.expire", entity: "quote", entityId: quote.id });
      await tellClient(tx, deps, quote, {
        title: "Quote Expired",
        message: `Quote ${quote.quoteNumber} has expired.`,
        subject: `Quote ${quote.quoteNumber} has expired`,
        lines: [
          `Quote ${quote.quoteNumber} was valid until ${quote.validUntil}. Ask us for a new one if you still need the work.`,
        ],
      });
      await tellOwner(
        tx,
        deps,
        quote,
        `Quote ${quote.quoteNumber} expired`,
        [`Quote ${quote.quoteNumber} for ${quote.name} expired unanswered on ${quote.validUntil}.`],
        "expired",
      );
    }
    return expired.length;
  });
}

async function firstInvoice(tx: Tx, orderId: string): Promise<Invoice | null> {
  const rows = await tx.execute(
    sql`select id from invoices where order_id = ${orderId} and kind <> 'balance' limit 1`,
  );
  const id = (rows as unknown as { rows: Array<{ id: string }> }).rows[0]?.id;
  return id ? ({ id } as Invoice) : null;
}

/**
 * When a quote's order is completed: the balance invoice, if the quote asked for a deposit (once: a
 * unique index on the order's invoices by kind). In the completing transaction.
 */
export async function issueBalanceInvoice(
  tx: Tx,
  deps: { config: Pick<Config, "business" | "publicUrl"> & Partial<Pick<Config, "invoices">> },
  order: Order,
): Promise<Invoice | null> {
  if (!order.quoteId) return null;
  const [quote] = await tx.select().from(quotes).where(eq(quotes.id, order.quoteId)).limit(1);
  if (!quote?.depositPercent) return null;
  const split = depositSplit(
    { taxCents: cents(quote.taxUsd), totalCents: cents(quote.totalUsd) },
    quote.depositPercent,
  );
  if (!split.balance) return null;
  const existing = await tx.execute(
    sql`select 1 from invoices where order_id = ${order.id} and kind = 'balance' limit 1`,
  );
  if ((existing as unknown as { rows: unknown[] }).rows.length > 0) return null;
  return createInvoiceForOrder(tx, {
    order,
    price: invoicePrice(split.balance, quote.taxRatePercent),
    // The configured term (every caller's config has it; 7 days is INVOICE_DUE_DAYS's default).
    dueDays: deps.config.invoices?.dueDays ?? 7,
    seller: sellerSnapshot(deps.config.business),
    kind: "balance",
  });
}

/** The back office's quotes, newest first (drafts included). */
export async function listQuotes(db: Database, limit = 100) {
  return db.select().from(quotes).orderBy(desc(quotes.createdAt), desc(quotes.id)).limit(limit);
}

export async function getQuote(db: Database, id: string) {
  const [row] = await db.select().from(quotes).where(eq(quotes.id, id)).limit(1);
  return row ?? null;
}
