/**
 * The scheduled overdue job: sent invoices past their due date become `overdue`, and the client is told
 * once (invoices.overdue_notified_at). Every process runs it; rows are claimed with FOR UPDATE SKIP
 * LOCKED and the update re-checks the status, so two processes never mark or notify the same invoice.
 */
import { sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { publishLiveEvent } from "~/features/live/live-events.server";
import { NOTIFICATIONS } from "~/features/notifications/messages";
import { raiseNotification } from "~/features/notifications/notifications.server";
import { clientInvoicePath } from "./invoice-paths";

const BATCH = 200;

/** Marks every sent invoice due before `now` overdue; returns how many it marked. */
export async function markOverdueInvoices(db: Database, now: Date = new Date()): Promise<number> {
  let marked = 0;
  for (;;) {
    const count = await db.transaction(async (tx) => {
      const result = (await tx.execute(sql`
        with due as (
          select id, overdue_notified_at is null as notify
          from invoices
          where status = 'sent' and due_date < ${now.toISOString()}::timestamptz
          order by due_date
          limit ${BATCH}
          for update skip locked
        )
        update invoices i
        set status = 'overdue', overdue_notified_at = coalesce(i.overdue_notified_at, now()), updated_at = now()
        from due
        where i.id = due.id and i.status = 'sent'
        returning i.id, i.client_id, i.invoice_number, due.notify
      `)) as unknown as {
        rows: Array<{ id: string; client_id: string; invoice_number: string; notify: boolean }>;
      };
      for (const row of result.rows) {
        await publishLiveEvent(tx, {
          userId: row.client_id,
          kind: "invoice",
          entityId: row.id,
          status: "overdue",
        });
        if (row.notify) {
          await raiseNotification(tx, row.client_id, {
            ...NOTIFICATIONS.invoiceOverdue(row.invoice_number),
            href: clientInvoicePath(row.id),
          });
        }
      }
      return result.rows.length;
    });
    marked += count;
    if (count < BATCH) return marked;
  }
}
