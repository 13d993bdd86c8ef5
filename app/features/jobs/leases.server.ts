/**
 * Job leases (`job_leases`, ADR 0503): a named row that says which process runs a job until when, so
 * every process may offer to run a timed job and only one runs it at a time. Works on PGlite and
 * PostgreSQL alike (one statement, no advisory locks). A lease whose holder died without releasing it
 * is taken over once it expires. Taking a lease one already holds renews it (the periodic-job runner
 * holds a job's lease while the job takes the same lease itself).
 */
import { sql } from "drizzle-orm";
import { type Database, queryRows } from "~/db/client.server";

/** Takes the lease `name` for `holder` until `now + ms`, unless another holder's lease is still running. */
export async function acquireLease(
  db: Database,
  name: string,
  holder: string,
  now: Date,
  ms: number,
): Promise<boolean> {
  const expires = new Date(now.getTime() + ms);
  const rows = await queryRows<{ name: string }>(
    db,
    sql`
    insert into job_leases (name, holder, expires_at) values (${name}, ${holder}, ${expires.toISOString()}::timestamptz)
    on conflict (name) do update set holder = excluded.holder, expires_at = excluded.expires_at
    where job_leases.expires_at <= ${now.toISOString()}::timestamptz or job_leases.holder = excluded.holder
    returning name
  `,
  );
  return rows.length > 0;
}

/** Gives the lease up (only if `holder` still holds it). */
export async function releaseLease(db: Database, name: string, holder: string): Promise<void> {
  await db.execute(sql`delete from job_leases where name = ${name} and holder = ${holder}`);
}
