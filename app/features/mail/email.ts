/** A rendered email, ready for the outbox: what every template produces. */
export interface EmailContent {
  subject: string;
  html: string;
  text: string;
}

/** First retry after `baseMs`, then doubling, capped at six hours. `attempt` counts from 1. */
export function retryDelayMs(attempt: number, baseMs: number): number {
  const SIX_HOURS = 6 * 60 * 60 * 1000;
  return Math.min(baseMs * 2 ** Math.max(0, attempt - 1), SIX_HOURS);
}
