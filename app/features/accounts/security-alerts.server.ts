/**
 * Security alerts (the profile's "Security alerts" switch): an email after a sign-in from an unknown
 * device, a password change, and two-factor turned on or off or new backup codes. Queued through the
 * outbox like every account email; a failure is logged and never stops what the user did.
 */
import { and, desc, eq, lt, sql } from "drizzle-orm";
import { session as sessionTable, signInDevices } from "~/db/schema";
import { loadAccountLocale } from "./account-locale.server";
import type { AccountDeps } from "./deps.server";
import { clientWantsEmail } from "./notification-preferences.server";
import { isUnknownDevice, KNOWN_DEVICES, type SecurityEvent, signInDevice } from "./security-alerts";

interface AlertedUser {
  id: string;
  name: string;
  email: string;
  role?: string | null;
}

/**
 * Queues the alert if the user wants it. Clients only: the email leads to the client profile's Security
 * tab; an admin's account is the owner's own.
 */
export async function sendSecurityAlert(
  deps: AccountDeps,
  user: AlertedUser,
  event: SecurityEvent,
): Promise<void> {
  try {
    if (user.role === "admin") return;
    if (!(await clientWantsEmail(deps.db, user.id, "securityAlert"))) return;
    const { timeZone } = await loadAccountLocale(deps.db, user.id);
    await deps.emails.securityAlert(user, event, new Date(), timeZone);
  } catch (error) {
    deps.logger.error({ err: error, event }, "security alert could not be queued");
  }
}

/**
 * After a successful sign-in (with its session made after `startedAt`): remembers the device, forgets
 * all but the last KNOWN_DEVICES, and alerts when the device was not among them nor among the user's
 * sessions that were open before.
 */
export async function noteSignIn(
  deps: AccountDeps,
  request: Request,
  user: AlertedUser,
  startedAt: Date,
): Promise<void> {
  try {
    const device = signInDevice(request.headers.get("user-agent"), deps.clientIp);
    const { db } = deps;
    const remembered = await db
      .select({ userAgent: signInDevices.userAgent, ipFamily: signInDevices.ipFamily })
      .from(signInDevices)
      .where(eq(signInDevices.userId, user.id))
      .orderBy(desc(signInDevices.lastSeenAt))
      .limit(KNOWN_DEVICES);
    const open = await db
      .select({ userAgent: sessionTable.userAgent, ipAddress: sessionTable.ipAddress })
      .from(sessionTable)
      .where(and(eq(sessionTable.userId, user.id), lt(sessionTable.createdAt, startedAt)))
      .orderBy(desc(sessionTable.createdAt))
      .limit(KNOWN_DEVICES);
    const seen = [...remembered, ...open.map((s) => signInDevice(s.userAgent, s.ipAddress))];
    const unknown = isUnknownDevice(device, seen);
    await db
      .insert(signInDevices)
      .values({ userId: user.id, ...device })
      .onConflictDoUpdate({
        target: [signInDevices.userId, signInDevices.userAgent, signInDevices.ipFamily],
        set: { lastSeenAt: sql`now()` },
      });
    await forgetOldDevices(deps, user.id);
    if (unknown) await sendSecurityAlert(deps, user, "newSignIn");
  } catch (error) {
    deps.logger.error({ err: error }, "sign-in device could not be checked");
  }
}

async function forgetOldDevices(deps: AccountDeps, userId: string): Promise<void> {
  await deps.db.execute(
    sql`delete from ${signInDevices} where ${signInDevices.userId} = ${userId}
        and (${signInDevices.userAgent}, ${signInDevices.ipFamily}) not in (
          select user_agent, ip_family from sign_in_devices where user_id = ${userId}
          order by last_seen_at desc limit ${KNOWN_DEVICES})`,
  );
}
