/**
 * The owner's editor posts (issue "quotes", item 2): `intent=save` saves the draft, `intent=preview`
 * checks and prices it without saving and shows what would be sent and to whom, `intent=send` (the
 * preview's button) saves it and sends it (what is on screen is what is sent), `intent=revise` makes a
 * new draft of a sent quote. `intent=add-line` and `intent=edit` (Back from the preview) give the
 * editor back what was posted, one blank row more for the first, nothing saved (issue 37, item 9). The form is read here and checked against the database (its quote request, its client, its
 * valid-until day); the changes are quote-drafts.server.ts's and quote-sending.server.ts's (priced by
 * the server, audited). Where the owner goes next is the back office's to say.
 */
import { and, eq } from "drizzle-orm";
import { clients } from "~/db/schema";
import type { QuoteDeps } from "./quote-deps.server";
import { type PricedDraft, priceDraft, reviseQuote, saveDraft } from "./quote-drafts.server";
import {
  PREVIEWED_TOTAL,
  parseQuoteForm,
  postedFormValues,
  type QuoteFormValues,
  withAnotherRow,
} from "./quote-form";
import { type QuoteFigures, quoteFigures } from "./quote-pricing";
import { quotableClient } from "./quote-queries.server";
import { getQuoteRequest } from "./quote-requests.server";
import { sendQuote } from "./quote-sending.server";
import { quoteDay } from "./quote-status";

/** The preview before sending: the draft as it would be sent, its figures, and the form to post again. */
export interface QuotePreview {
  draft: PricedDraft;
  figures: QuoteFigures;
  /** What the editor posted, sent again by Send (hidden fields) or Back. */
  values: QuoteFormValues;
}

export type QuoteEditOutcome =
  | { ok: true; intent: "revise"; id: string }
  | { ok: true; intent: "edit"; values: QuoteFormValues }
  | { ok: true; intent: "preview"; preview: QuotePreview }
  | { ok: true; intent: "save" | "send"; id: string; message: string }
  | {
      ok: false;
      status: number;
      error: string;
      /** What was posted, to show again in the editor (null: nothing to show). */
      values: QuoteFormValues | null;
      /** Set when the draft was saved but could not be sent: the draft to send again. */
      savedId?: string;
    };

const refused = (status: number, error: string, values: QuoteFormValues | null = null): QuoteEditOutcome => ({
  ok: false,
  status,
  error,
  values,
});

/** A post of the editor (`id` null: a new quote) or of a quote's page. */
export async function editQuote(
  deps: QuoteDeps & { wakeOutbox(): void },
  id: string | null,
  values: Readonly<Record<string, string>>,
  now = new Date(),
): Promise<QuoteEditOutcome> {
  const intent = values.intent ?? "save";
  if (intent === "revise") {
    if (!id) return refused(400, "Save the quote before revising it.");
    const revised = await reviseQuote(deps, id);
    if (!revised.ok) return refused(revised.status, revised.error);
    return { ok: true, intent, id: revised.id };
  }
  if (intent === "add-line")
    return { ok: true, intent: "edit", values: withAnotherRow(postedFormValues(values, false)) };
  if (intent === "edit") return { ok: true, intent: "edit", values: postedFormValues(values) };
  if (intent !== "save" && intent !== "send" && intent !== "preview") return refused(400, "Unknown action.");

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
      .where(and(eq(clients.id, input.clientId), quotableClient()))
      .limit(1);
    if (!client) return refused(400, "No such client.", shown);
    input.name = input.name.trim() || client.name;
    input.email = input.email || client.email;
    input.company ??= client.company;
  }
  if (intent !== "save" && /^\d{4}-\d{2}-\d{2}$/.test(input.validUntil)) {
    if (input.validUntil < quoteDay(now))
      return refused(400, "The valid-until date has passed: change it before sending.", shown);
  }
  if (intent === "preview" || values[PREVIEWED_TOTAL] !== undefined) {
    const priced = await priceDraft(deps, input);
    if (!priced.ok) return refused(priced.status, priced.error, shown);
    const preview = { draft: priced.draft, figures: quoteFigures(priced.draft), values: shown };
    if (intent === "preview") return { ok: true, intent, preview };
    // The catalogue's prices moved since the preview: show the new figures, send nothing.
    if (values[PREVIEWED_TOTAL] !== priced.draft.totalUsd.toFixed(2))
      return refused(
        409,
        "The figures changed since the preview (a catalogue price moved): check them again before sending.",
        shown,
      );
  }

  const saved = await saveDraft(deps, id, input);
  if (!saved.ok) return refused(saved.status, saved.error, saved.status === 400 ? shown : null);
  if (intent === "save") return { ok: true, intent, id: saved.id, message: saved.message };
  const sent = await sendQuote(deps, saved.id, now);
  // The draft is kept: it can be sent again.
  if (!sent.ok) return { ok: false, status: sent.status, error: sent.error, values: null, savedId: saved.id };
  deps.wakeOutbox();
  return { ok: true, intent, id: saved.id, message: sent.message };
}
