/**
 * The last payment error, kept in the browser's local storage (public-site.md §3 "Last payment
 * error"): message, stack, component stack, timestamp, user agent, url and errorType
 * 'payment_flow_error'. The error id is shown to the visitor so support can find the record.
 */
export const PAYMENT_ERROR_KEY = "portico.payment.lastError";

export interface PaymentErrorRecord {
  errorId: string;
  message: string;
  stack: string | null;
  componentStack: string | null;
  timestamp: string;
  userAgent: string;
  url: string;
  errorType: "payment_flow_error";
}

export function buildPaymentErrorRecord(
  error: unknown,
  componentStack: string | null | undefined,
  env: { errorId: string; now: Date; userAgent: string; url: string },
): PaymentErrorRecord {
  const err = error instanceof Error ? error : new Error(String(error));
  return {
    errorId: env.errorId,
    message: err.message,
    stack: err.stack ?? null,
    componentStack: componentStack ?? null,
    timestamp: env.now.toISOString(),
    userAgent: env.userAgent,
    url: env.url,
    errorType: "payment_flow_error",
  };
}

/** A short id a person can read out to support, e.g. "ERR-LX2K9A-7QF3". */
export function newErrorId(now: Date = new Date(), random: () => number = Math.random): string {
  const rand = Math.floor(random() * 36 ** 4)
    .toString(36)
    .toUpperCase()
    .padStart(4, "0");
  return `ERR-${now.getTime().toString(36).toUpperCase()}-${rand}`;
}

export function storePaymentError(storage: Pick<Storage, "setItem">, record: PaymentErrorRecord): void {
  try {
    storage.setItem(PAYMENT_ERROR_KEY, JSON.stringify(record));
  } catch {
    // Full or blocked storage must not turn an error screen into a second crash.
  }
}
