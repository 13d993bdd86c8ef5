/**
 * Making admins: `npm run admin:create` (through the running server on the embedded database, or
 * directly) and ADMIN_EMAILS (listed addresses become admins once verified).
 */
import { randomBytes, randomUUID } from "node:crypto";
import { hashPassword } from "better-auth/crypto";
import { and, eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "~/db/client.server";
import { account, user } from "~/db/schema";
import { recordAudit } from "~/features/audit/audit.server";
import { serverPasswordError } from "./common-passwords.server";

export const adminCreateInput = z.object({
  email: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.email({ message: "--email must be an email address" })),
  name: z.string().trim().max(120).optional(),
});
export type AdminCreateInput = z.infer<typeof adminCreateInput>;

export interface AdminCreateResult {
  outcome: "created" | "promoted" | "already-admin";
  email: string;
  userId: string;
  /** Whether this run set the account's password. */
  passwordSet: boolean;
}

/** A password meeting the site's rules (upper, lower, digit, special, 20 characters). */
export function generatePassword(): string {
  const body = randomBytes(15).toString("base64url").replace(/[-_]/g, "x");
  return `${body}A9!a`;
}

/**
 * Creates an admin account (verified, with the given password), or makes an existing account an admin.
 * A password given for an existing account replaces its password. Recorded in the audit log.
 */
export async function createOrPromoteAdmin(
  db: Database,
  input: AdminCreateInput & { password: string | null },
  actorEmail = "admin:create (command line)",
): Promise<AdminCreateResult> {
  if (input.password !== null) {
    const problem = serverPasswordError(input.password);
    if (problem) throw new AdminInputError(problem);
  }
  const hash = input.password === null ? null : await hashPassword(input.password);
  return db.transaction(async (tx) => {
    const [existing] = await tx.select().from(user).where(eq(user.email, input.email)).limit(1);
    const actor = { id: null, email: actorEmail };
    if (!existing) {
      if (hash === null) throw new AdminInputError("a password is needed for a new account");
      const id = randomUUID();
      const name = input.name || input.email.split("@")[0] || "Admin";
      await tx.insert(user).values({ id, name, email: input.email, emailVerified: true, role: "admin" });
      await tx.insert(account).values({
        id: randomUUID(),
        accountId: id,
        providerId: "credential",
        userId: id,
        password: hash,
      });
      await recordAudit(tx, actor, {
        action: "admin.create",
        entity: "user",
        entityId: id,
        after: { email: input.email, name, role: "admin" },
      });
      return { outcome: "created", email: input.email, userId: id, passwordSet: true };
    }
    const wasAdmin = existing.role === "admin";
    await tx
      .update(user)
      .set({ role: "admin", emailVerified: true, ...(input.name ? { name: input.name } : {}) })
      .where(eq(user.id, existing.id));
    if (hash !== null) {
      const updated = await tx
        .update(account)
        .set({ password: hash })
        .where(and(eq(account.userId, existing.id), eq(account.providerId, "credential")))
        .returning({ id: account.id });
      if (updated.length === 0) {
        await tx.insert(account).values({
          id: randomUUID(),
          accountId: existing.id,
          providerId: "credential",
          userId: existing.id,
          password: hash,
        });
      }
    }
    await recordAudit(tx, actor, {
      action: wasAdmin ? "admin.update" : "admin.promote",
      entity: "user",
      entityId: existing.id,
      before: { role: existing.role, emailVerified: existing.emailVerified },
      after: { role: "admin", emailVerified: true, passwordChanged: hash !== null },
    });
    return {
      outcome: wasAdmin ? "already-admin" : "promoted",
      email: input.email,
      userId: existing.id,
      passwordSet: hash !== null,
    };
  });
}

export class AdminInputError extends Error {
  override name = "AdminInputError";
}

/**
 * Makes verified accounts listed in ADMIN_EMAILS admins (at start, and whenever one verifies). Returns
 * the addresses promoted now.
 */
export async function promoteListedAdmins(db: Database, adminEmails: string[], onlyEmail?: string) {
  const targets = onlyEmail ? adminEmails.filter((e) => e === onlyEmail.toLowerCase()) : adminEmails;
  if (targets.length === 0) return [];
  return db.transaction(async (tx) => {
    const promoted = await tx
      .update(user)
      .set({ role: "admin" })
      .where(
        and(
          inArray(sql`lower(${user.email})`, targets),
          eq(user.emailVerified, true),
          eq(user.role, "client"),
        ),
      )
      .returning({ id: user.id, email: user.email });
    for (const p of promoted) {
      await recordAudit(
        tx,
        { id: null, email: "ADMIN_EMAILS" },
        {
          action: "admin.promote",
          entity: "user",
          entityId: p.id,
          before: { role: "client" },
          after: { role: "admin" },
        },
      );
    }
    return promoted.map((p) => p.email);
  });
}
