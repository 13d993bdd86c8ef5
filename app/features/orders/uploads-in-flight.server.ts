/**
 * How many posts with files an account has being read and stored at once, in this process (ADR 0514).
 * An upload holds its files in memory until they are stored (up to five of 10 MB), so the number in
 * flight, not the number per ten minutes, bounds what one account can make the process hold. Kept in
 * memory per process: a slot lives only as long as its request, and several processes each hold at
 * most their own share (the rate limit, in the database, is the one that holds across processes).
 */

/** Posts with files one account may have in flight in one process. */
export const UPLOADS_IN_FLIGHT_PER_ACCOUNT = 2;

export class UploadsInFlight {
  private readonly counts = new Map<string, number>();

  constructor(readonly limit = UPLOADS_IN_FLIGHT_PER_ACCOUNT) {}

  /** A slot for the account, with the function that gives it back (once); null when all are taken. */
  tryAcquire(accountId: string): (() => void) | null {
    const held = this.counts.get(accountId) ?? 0;
    if (held >= this.limit) return null;
    this.counts.set(accountId, held + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const now = (this.counts.get(accountId) ?? 1) - 1;
      if (now <= 0) this.counts.delete(accountId);
      else this.counts.set(accountId, now);
    };
  }

  /** Slots the account holds now. */
  held(accountId: string): number {
    return this.counts.get(accountId) ?? 0;
  }
}

/** This process's count, used when the deps bring none. */
export const processUploadsInFlight = new UploadsInFlight();
