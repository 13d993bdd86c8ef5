/**
 * The back office's quote pages (issue "quotes", item 2): what the editor and a quote's page show, and
 * their posts. `intent=save` saves the draft, `intent=send` saves it and sends it (what is on screen is
 * what is sent), `intent=revise` makes a new draft of a sent quote. Every change is quotes.server.ts's
 * (priced by the server, audited); this module reads the form and answers.
 */
import { and, asc, desc, eq } from "drizzle-orm";
import type { AppLoadContext } from "react-router";
import type { Database } from "~/db/client.server";
import { auditLog, clients, type Quote, quoteRequests, quotes } from "~/db/schema";
import { formatMoney } from "~/features/money/format";
import type { QuoteDeps } from "~/features/quotes/quote-deps.server";
import { reviseQuote, saveDraft } from "~/features/quotes/quote-drafts.server";
import {
  catalogueItem,
  parseQuoteForm,
  postedFormValues,
  type QuoteFormValues,
} from "~/features/quotes/quote-form";
import { cents, depositSplit, quoteAmounts } from "~/features/quotes/quote-pricing";
import { getQuote } from "~/features/quotes/quote-queries.server";
import { sendQuote } from "~/features/quotes/quote-sending.server";
import { quoteDay } from "~/features/quotes/quote-status";
import { listCatalogue } from "./catalogue.server";
import { adminDeps } from "./route-helpers.server";

/** The admin's deps for a quote: the audit's, with the full configuration (the invoice rules). */
export async function adminQuoteDeps(
  request: Request,
  context: AppLoadContext,
): Promise<QuoteDeps & { wakeOutbox(): void }> {
  const deps = await adminDeps(request, context);
  return { ...deps, config: context.runtime.config, wakeOutbox: () => context.runtime.outbox.wake() };
}

export interface CatalogueOption {
  value: string;
  label: string;
}
export interface ClientOption {
  id: string;
  label: string;
}

/** What the editor chooses from: every package of the catalogue with its price, and the clients. */
export async function editorChoices(db: Database) {
  const [services, clientRows] = await Promise.all([
    listCatalogue(db),
    db
      .select({ id: clients.id, name: clients.name, email: clients.email, company: clients.company })
      .from(clients)
      .orderBy(asc(clients.name), asc(clients.email))
      .limit(1000),
  ]);
  const catalogue: CatalogueOption[] = services.flatMap((s) =>
    s.packageOrder
      .filter((p) => s.pricing[p] !== undefined)
      .map((p) => ({
        value: catalogueItem(s.id, p),
        label: `${s.name} — ${s.packageNames[p] ?? p}, ${formatMoney(s.pricing[p]!, "USD")}${s.active ? "" : " (not on the site)"}`,
      })),
  );
  const clientOptions: ClientOption[] = clientRows.map((c) => ({
    id: c.id,
    label: `${c.name}${c.company ? ` (${c.company})` : ""} <${c.email}>`,
  }));
  return { catalogue, clients: clientOptions };
}

/** A request to write a quote from, or null. */
export async function getQuoteRequest(db: Database, id: string) {
  const [row] = await db.select().from(quoteRequests).where(eq(quoteRequests.id, id)).limit(1);
  return row ?? null;
}

/** A quote's amounts as its page shows them: each line's, and the deposit and balance. */
export function quoteFigures(quote: Quote) {
  const { lineCents } = quoteAmounts(quote.lines, quote.discountUsd, quote.taxRatePercent);
  const split = depositSplit(
    { taxCents: cents(quote.taxUsd), totalCents: cents(quote.totalUsd) },
    quote.depositPercent,
  );
  return {
    lineUsd: lineCents.map((c) => c / 100),
    depositUsd: split.balance ? split.first.totalCents / 100 : null,
    balanceUsd: split.balance ? split.balance.totalCents / 100 : null,
  };
}

/** One quote's page: the quote, its amounts, the quote it revises and its revisions, its history. */
export async function quotePage(db: Database, id: string) {
  const quote = await getQuote(db, id);
  if (!quote) return null;
  const link = { id: quotes.id, quoteNumber: quotes.quoteNumber, status: quotes.status };
  const [supersedes, revisions, history] = await Promise.all([
    quote.supersedesId
      ? db.select(link).from(quotes).where(eq(quotes.id, quote.supersedesId)).limit(1)
      : Promise.resolve([]),
    db.select(link).from(quotes).where(eq(quotes.supersedesId, quote.id)).orderBy(desc(quotes.createdAt)),
    db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, "quote"), eq(auditLog.entityId, id)))
      .orderBy(desc(auditLog.at))
      .limit(50),
  ]);
  return { quote, figures: quoteFigures(quote), supersedes: supersedes[0] ?? null, revisions, history };
}

/** What a quote's page says after a redirect (`?done=`), as the Outcome component shows it. */
export function doneOutcome(
  done: string | null,
  quote: Pick<Quote, "quoteNumber" | "email" | "status">,
  supersedes: { quoteNumber: string | null } | null,
): { ok: true; message: string } | { ok: false; error: string } | null {
  switch (done) {
    // Each only while it is still true (the address stays after the quote moves on).
    case "saved":
      return quote.status === "draft" ? { ok: true, message: "The draft is saved." } : null;
    case "sent":
      return quote.quoteNumber
        ? { ok: true, message: `Quote ${quote.quoteNumber} was sent to ${quote.email}.` }
        : null;
    case "unsent":
      return quote.status === "draft"
        ? { ok: false, error: "The draft is saved, but it was not sent: check it and send it again." }
        : null;
    case "revised":
      return quote.status === "draft" && supersedes?.quoteNumber
        ? { ok: true, message: `A revision of ${supersedes.quoteNumber} is ready to edit.` }
        : null;
    default:
      return null;
  }
}

export type QuotePostResult =
  | { ok: true; message: string; values: null }
  | { ok: false; error: string; values: QuoteFormValues | null };

export type QuotePostOutcome = { redirect: string } | { status: number; result: QuotePostResult };

const refused = (status: number, error: string, values: QuoteFormValues | null = null): QuotePostOutcome => ({
  status,
  result: { ok: false, error, values },
});

/**
 * A post of the editor (`id` null: a new quote) or of a quote's page. A new quote, once saved, moves to
 * its own page (`?done=saved|sent`); a revision to the new draft's (`?done=revised`).
 */
export async function handleQuotePost(
  deps: QuoteDeps & { wakeOutbox(): void },
  id: string | null,
  values: Readonly<Record<string, string>>,
  now = new Date(),
): Promise<QuotePostOutcome> {
  const intent = values.intent ?? "save";
  if (intent === "revise") {
    if (!id) return refused(400, "Save the quote before revising it.");
    const revised = await reviseQuote(deps, id);
    if (!revised.ok) return refused(revised.status, revised.error);
    return { redirect: `/admin/quotes/${revised.id}?done=revised` };
  }
  if (intent !== "save" && intent !== "send") return refused(400, "Unknown action.");

  const shown = postedFormValues(values);
  const parsed = parseQuoteForm(values);
  if (!parsed.ok) return refused(400, parsed.error, shown);
  const input = { ...parsed.input };
  if (input.requestId) {
    const request = /^[0-9a-f-]{36}$/i.test(input.requestId)
      ? await getQuoteRequest(deps.db, input.requestId)
      : null;
    if (!request) return refused(400, "No such quote request.", shown);
  }
  // A client chosen without a name or address: the quote goes to the client's own.
  if (input.clientId && (!input.name.trim() || !input.email)) {
    const [client] = await deps.db
      .select({ name: clients.name, email: clients.email, company: clients.company })
      .from(clients)
      .where(eq(clients.id, input.clientId))
      .limit(1);
    if (!client) return refused(400, "No such client.", shown);
    input.name = input.name.trim() || client.name;
    input.email = input.email || client.email;
    input.company ??= client.company;
  }
  if (intent === "send" && /^\d{4}-\d{2}-\d{2}$/.test(input.validUntil)) {
    if (input.validUntil < quoteDay(now))
      return refused(400, "The valid-until date has passed: change it before sending.", shown);
  }

  const saved = await saveDraft(deps, id, input);
  if (!saved.ok) return refused(saved.status, saved.error, saved.status === 400 ? shown : null);
  if (intent === "save") {
    if (!id) return { redirect: `/admin/quotes/${saved.id}?done=saved` };
    return { status: 200, result: { ok: true, message: saved.message, values: null } };
  }
  const sent = await sendQuote(deps, saved.id, now);
  if (!sent.ok) {
    // The draft is kept: a new one is shown on its own page, where it can be sent again.
    if (!id) return { redirect: `/admin/quotes/${saved.id}?done=unsent` };
    return refused(sent.status, sent.error);
  }
  deps.wakeOutbox();
  if (!id) return { redirect: `/admin/quotes/${saved.id}?done=sent` };
  return { status: 200, result: { ok: true, message: sent.message, values: null } };
}
