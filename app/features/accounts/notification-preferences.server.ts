/**
 * A user's notification switches (notification-preferences.ts), kept in user_preferences beside the
 * currency preference: read where an email to a client is about to be queued, saved from the profile's
 * Notifications form.
 */
import { eq, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { userPreferences } from "~/db/schema";
import {
  type ClientEmailTopic,
  DEFAULT_NOTIFICATION_PREFERENCES,
  emailAllowed,
  type NotificationPreferences,
} from "./notification-preferences";

/** The saved switches of a user, or the spec's defaults when none are saved. Pass the caller's transaction. */
export async function loadNotificationPreferences(
  db: Database,
  userId: string,
): Promise<NotificationPreferences> {
  const [row] = await db
    .select({
      emailNotifications: userPreferences.emailNotifications,
      smsNotifications: userPreferences.smsNotifications,
      orderUpdates: userPreferences.orderUpdates,
      marketingEmails: userPreferences.marketingEmails,
      securityAlerts: userPreferences.securityAlerts,
    })
    .from(userPreferences)
    .where(eq(userPreferences.userId, userId))
    .limit(1);
  return row ?? DEFAULT_NOTIFICATION_PREFERENCES;
}

/** Whether this user gets an email of this kind (their saved switches, or the defaults). */
export async function clientWantsEmail(
  db: Database,
  userId: string,
  topic: ClientEmailTopic,
): Promise<boolean> {
  return emailAllowed(await loadNotificationPreferences(db, userId), topic);
}

/** Saves all five switches (the row is made with the currency defaults if there is none yet). */
export async function saveNotificationPreferences(
  db: Database,
  userId: string,
  preferences: NotificationPreferences,
): Promise<void> {
  await db
    .insert(userPreferences)
    .values({ userId, ...preferences })
    .onConflictDoUpdate({
      target: userPreferences.userId,
      set: { ...preferences, updatedAt: sql`now()` },
    });
}
