/**
 * The audit log: every change a person makes by hand (the owner in the back office today; a client's
 * refund or accepted quote tomorrow) is one row, written in the same transaction as the change (who,
 * what, on which entity, the state before and after, when). Automatic changes (a provider's webhook,
 * the overdue job) leave their own records (payment_events, the invoice's overdue_notified_at).
 */
import type { Config } from "~/config.server";
import type { Database } from "~/db/client.server";
import { auditLog } from "~/db/schema";
import type { ActionResult } from "~/ui/form";

/** Who acts: a signed-in person, or the command line for `admin:create`. */
export interface Actor {
  id: string | null;
  email: string;
}

/** What a change made by someone needs: the database, the site for the client's email, the actor. */
export interface ChangeDeps {
  db: Database;
  config: Pick<Config, "business" | "publicUrl">;
  actor: Actor;
}

/**
 * A change that queues email: its deps, and the outbox to wake once its transaction committed (the
 * change calls it, after a success), so the email leaves at once instead of at the outbox's next poll.
 */
export interface MailingChangeDeps extends ChangeDeps {
  wakeOutbox(): void;
}

/**
 * A change's outcome: a message to show, or an HTTP status and the reason it was refused. The one form
 * answer (`ActionResult`, app/ui/form.ts) with its message always said.
 */
export type ChangeResult = ActionResult<{ message: string }>;

type Insertable = Pick<Database, "insert">;

export async function recordAudit(
  db: Insertable,
  actor: Actor,
  entry: { action: string; entity: string; entityId?: string | null; before?: unknown; after?: unknown },
): Promise<void> {
  await db.insert(auditLog).values({
    actorId: actor.id,
    actorEmail: actor.email,
    action: entry.action,
    entity: entry.entity,
    entityId: entry.entityId ?? null,
    before: entry.before ?? null,
    after: entry.after ?? null,
  });
}
