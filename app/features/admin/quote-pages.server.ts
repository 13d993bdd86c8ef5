/**
 * The back office's quote pages (issue "quotes", item 2): what the editor and a quote's page show, and
 * where a post leads. What a post changes is the quotes feature's (quotes/quote-editing.server.ts:
 * read, checked, priced by the server, audited); this module wires it and answers.
 */
import { and, desc, eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { auditLog, type Quote, quotes } from "~/db/schema";
import type { ChangeResult, MailingChangeDeps } from "~/features/audit/audit.server";
import { listCatalogue } from "~/features/catalogue/catalogue-edit.server";
import { formatMoney } from "~/features/money/format";
import { adminQuotePath, type QuoteDeps } from "~/features/quotes/quote-deps.server";
import { editQuote, type QuotePreview } from "~/features/quotes/quote-editing.server";
import { catalogueItem, type QuoteFormValues } from "~/features/quotes/quote-form";
import { quoteFigures } from "~/features/quotes/quote-pricing";
import { getQuote, listQuotableClients } from "~/features/quotes/quote-queries.server";
import type { ActionResult } from "~/ui/form";

export interface CatalogueOption {
  value: string;
  label: string;
}
export interface ClientOption {
  id: string;
  label: string;
}

/** What the editor chooses from: every package of the catalogue with its price, and the clients (not admins or deleted accounts). */
export async function editorChoices(db: Database) {
  const [services, clientRows] = await Promise.all([listCatalogue(db), listQuotableClients(db)]);
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

/**
 * What a quote's page says after a redirect (`?done=`), as the Outcome component shows it: the post's
 * answer, told again ("unsent": the send's refusal, a 409).
 */
export function doneOutcome(
  done: string | null,
  quote: Pick<Quote, "quoteNumber" | "email" | "status">,
  supersedes: { quoteNumber: string | null } | null,
): ChangeResult | null {
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
        ? {
            ok: false,
            status: 409,
            error: "The draft is saved, but it was not sent: check it and send it again.",
          }
        : null;
    case "revised":
      return quote.status === "draft" && supersedes?.quoteNumber
        ? { ok: true, message: `A revision of ${supersedes.quoteNumber} is ready to edit.` }
        : null;
    default:
      return null;
  }
}

/**
 * What a post of the editor or a quote's page answers (the one form answer, ADR 0011): a refusal gives
 * back what was posted for the editor to show again; `redirectTo` says where the owner goes instead of
 * staying (the route redirects).
 */
export type QuotePostResult = ActionResult<
  {
    message?: string;
    redirectTo?: string;
    /** The editor shown again as posted (Add line, Back from the preview): nothing was saved. */
    editor?: QuoteFormValues;
    /** The step before sending: what would be sent, and to whom. */
    preview?: QuotePreview;
  },
  { values: QuoteFormValues | null; redirectTo?: string }
>;

/**
 * A post of the editor (`id` null: a new quote) or of a quote's page. A new quote, once saved, moves to
 * its own page (`?done=saved|sent`, or `unsent` when it was saved but not sent); a revision to the new
 * draft's (`?done=revised`).
 */
export async function handleQuotePost(
  deps: QuoteDeps & MailingChangeDeps,
  id: string | null,
  values: Readonly<Record<string, string>>,
  now = new Date(),
): Promise<QuotePostResult> {
  const done = await editQuote(deps, id, values, now);
  if (!done.ok) {
    const refusal = { ok: false as const, status: done.status, error: done.error, values: done.values };
    // The draft is kept: a new one is shown on its own page, where it can be sent again.
    if (!id && done.savedId) return { ...refusal, redirectTo: `${adminQuotePath(done.savedId)}?done=unsent` };
    return refusal;
  }
  if (done.intent === "revise") return { ok: true, redirectTo: `${adminQuotePath(done.id)}?done=revised` };
  if (done.intent === "edit") return { ok: true, editor: done.values };
  if (done.intent === "preview") return { ok: true, preview: done.preview };
  if (!id) {
    return {
      ok: true,
      message: done.message,
      redirectTo: `${adminQuotePath(done.id)}?done=${done.intent === "save" ? "saved" : "sent"}`,
    };
  }
  return { ok: true, message: done.message };
}
