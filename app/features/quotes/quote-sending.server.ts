/** Sending a draft (issue "quotes"): its number from a gap-free counter, the client told. */

import { eq, sql } from "drizzle-orm";
import type { Tx } from "~/db/client.server";
import { quoteCounters, quoteRequests, quotes } from "~/db/schema";
import { recordAudit } from "~/features/audit/audit.server";
import { publishLiveEvent } from "~/features/live/live-events.server";
import { formatMoney } from "~/features/money/format";
import { taxForClient } from "~/features/tax/client-tax.server";
import { readDocumentTax, sameTax } from "~/features/tax/document-tax";
import type { QuoteDeps, QuoteResult } from "./quote-deps.server";
import { tellClient } from "./quote-notices.server";
import { quoteNumberFor } from "./quote-pricing";
import { quoteDay } from "./quote-status";

async function nextQuoteSeq(tx: Tx, year: number): Promise<number> {
  const [row] = await tx
    .insert(quoteCounters)
    .values({ year, lastSeq: 1 })
    .onConflictDoUpdate({ target: quoteCounters.year, set: { lastSeq: sql`${quoteCounters.lastSeq} + 1` } })
    .returning({ seq: quoteCounters.lastSeq });
  return row!.seq;
}

export const QUOTE_TAX_CHANGED =
  "The client's VAT treatment has changed since this draft was priced: save the draft again to price it anew, then send it.";

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
    // Issue 40: the VAT is the one the client's invoices will carry today, frozen with the quote.
    const tax = await taxForClient(tx, deps.config, row.clientId);
    if (!sameTax(readDocumentTax(row.tax, row.taxRatePercent), tax))
      return { ok: false, status: 409, error: QUOTE_TAX_CHANGED };
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
      .set({ quoteNumber, quoteYear: year, quoteSeq: seq, status: "sent", sentAt: now, tax })
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
