/**
 * The `clients` record beside each auth user (client-portal.md §3–4): created or updated when the
 * email is verified, ensured at sign-in and by the access gate.
 */
import { eq, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { type Client, clients, user } from "~/db/schema";

interface UserLike {
  id: string;
  name?: string | null;
  email: string;
}

/** The spec's fallback chain: the name given at sign-up, else the part of the email before @, else 'User'. */
export function clientNameFor(user: { name?: string | null; email: string }): string {
  const name = user.name?.trim();
  if (name) return name;
  const local = user.email.split("@")[0]?.trim();
  return local || "User";
}

export async function getClient(db: Database, userId: string): Promise<Client | null> {
  const [row] = await db.select().from(clients).where(eq(clients.id, userId)).limit(1);
  return row ?? null;
}

/** Creates the client record as verified, or marks an existing one verified (keeping its first timestamp). */
export async function markClientVerified(db: Database, user: UserLike): Promise<Client> {
  const [row] = await db
    .insert(clients)
    .values({
      id: user.id,
      name: clientNameFor(user),
      email: user.email,
      emailVerified: true,
      emailVerifiedAt: new Date(),
    })
    .onConflictDoUpdate({
      target: clients.id,
      set: {
        emailVerified: true,
        email: user.email,
        emailVerifiedAt: sql`coalesce(${clients.emailVerifiedAt}, now())`,
        updatedAt: new Date(),
      },
    })
    .returning();
  return row!;
}

/** The access gate's rule: a verified user without a client record gets one. */
export async function ensureClient(db: Database, user: UserLike): Promise<Client> {
  const existing = await getClient(db, user.id);
  if (existing?.emailVerified) return existing;
  return markClientVerified(db, user);
}

/**
 * Saves name, phone, company, the billing details, the timezone and the language (a field the form did
 * not post stays as it was); the name is the account's display name too. Issued invoices keep their own copy (ADR 0504).
 */
export async function updateClientProfile(
  db: Database,
  userId: string,
  profile: {
    name: string;
    phone: string;
    company: string;
    address?: string;
    country?: string;
    countryCode?: string;
    taxId?: string;
    timeZone?: string;
    language?: string;
  },
  /**
   * What VIES said of the VAT number (issue 40): written with the number; null clears an earlier answer
   * (no number, or one not asked about). Undefined leaves it as it was.
   */
  vat?: {
    status: "valid" | "unconfirmed";
    number: string;
    checkedAt: Date | null;
    requestId: string | null;
  } | null,
): Promise<Client | null> {
  const billing = (value: string | undefined) => (value === undefined ? undefined : value || null);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(clients)
      .set({
        name: profile.name,
        phone: profile.phone || null,
        company: profile.company || null,
        address: billing(profile.address),
        // A country chosen from the list replaces the old text no country matched (issue 37, item 12).
        countryCode: billing(profile.countryCode),
        country: profile.countryCode ? null : billing(profile.country),
        taxId: vat ? vat.number : billing(profile.taxId),
        ...(vat === undefined
          ? {}
          : {
              vatStatus: vat?.status ?? null,
              vatCheckedNumber: vat?.number ?? null,
              vatCheckedAt: vat?.checkedAt ?? null,
              vatRequestId: vat?.requestId ?? null,
            }),
        timeZone: profile.timeZone,
        language: profile.language,
        updatedAt: new Date(),
      })
      .where(eq(clients.id, userId))
      .returning();
    if (row) await tx.update(user).set({ name: profile.name }).where(eq(user.id, userId));
    return row ?? null;
  });
}
