/**
 * How long a session lives. Idle: a remembered session expires 30 days after it was last refreshed
 * (refreshed at most daily as it is used, by better-auth); a session without "remember me" lasts a
 * day and is never extended. Absolute: no session outlives 90 days from its sign-in, however busy.
 */
const DAY_SECONDS = 24 * 60 * 60;

export const SESSION_IDLE_SECONDS = 30 * DAY_SECONDS;
export const SESSION_REFRESH_SECONDS = DAY_SECONDS;
export const SESSION_ABSOLUTE_SECONDS = 90 * DAY_SECONDS;

/** Whether a session signed in at `createdAt` has outlived its absolute lifetime at `now`. */
export function pastAbsoluteLifetime(createdAt: Date | string, now = new Date()): boolean {
  return now.getTime() - new Date(createdAt).getTime() > SESSION_ABSOLUTE_SECONDS * 1000;
}
