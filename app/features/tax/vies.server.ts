/**
 * Asking the EU's VIES service whether a VAT number is registered (issue 40, item 3), through its REST
 * API (`POST {VIES_URL}/check-vat-number`). The seller's own VAT number is sent as the requester, so
 * VIES answers a request identifier: kept with the answer and its time, it is the proof a reverse charge
 * needs. VIES is often down for a member state (each has its hours): that is "unavailable", never
 * "invalid", and the caller treats the number as not yet confirmed.
 */

export type ViesAnswer =
  | {
      status: "valid" | "invalid";
      /** When VIES answered (its requestDate, else the clock's). */
      checkedAt: Date;
      /** VIES's consultation number, when a requester was given and VIES gave one. */
      requestIdentifier: string | null;
      /** The trader's name, when the member state discloses it. */
      name: string | null;
    }
  | { status: "unavailable"; reason: string };

export interface ViesDeps {
  /** VIES_URL, without a trailing slash. */
  url: string;
  fetch?: typeof fetch;
  now?: () => Date;
  /** Per request (default 8 s): VIES takes a few seconds on a good day. */
  timeoutMs?: number;
}

/** VIES's words for a service that could not answer now: worth asking again later. */
const UNAVAILABLE = new Set([
  "MS_UNAVAILABLE",
  "SERVICE_UNAVAILABLE",
  "TIMEOUT",
  "MS_MAX_CONCURRENT_REQ",
  "GLOBAL_MAX_CONCURRENT_REQ",
  "IP_BLOCKED",
]);

const text = (value: unknown): string | null =>
  typeof value === "string" && value.trim() !== "" && value.trim() !== "---" ? value.trim() : null;

/**
 * Checks `number` (prefix and body, as `parseVatNumber` gives them) with `requester` (the seller's own
 * number, or null). Never throws: a network failure, a timeout or a refusal of VIES's is "unavailable".
 */
export async function checkVatNumber(
  deps: ViesDeps,
  number: { prefix: string; body: string },
  requester: { prefix: string; body: string } | null,
): Promise<ViesAnswer> {
  const doFetch = deps.fetch ?? fetch;
  const now = deps.now ?? (() => new Date());
  let response: Response;
  try {
    response = await doFetch(`${deps.url}/check-vat-number`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({
        countryCode: number.prefix,
        vatNumber: number.body,
        ...(requester ? { requesterMemberStateCode: requester.prefix, requesterNumber: requester.body } : {}),
      }),
      signal: AbortSignal.timeout(deps.timeoutMs ?? 8_000),
      redirect: "error",
    });
  } catch (error) {
    const timedOut = (error as Error)?.name === "TimeoutError";
    return {
      status: "unavailable",
      reason: timedOut ? "VIES did not answer in time" : "VIES could not be reached",
    };
  }
  let body: Record<string, unknown> = {};
  try {
    const raw = await response.text();
    body = raw.length > 100_000 ? {} : (JSON.parse(raw) as Record<string, unknown>);
  } catch {
    body = {};
  }
  const wrapped = Array.isArray(body.errorWrappers) ? (body.errorWrappers as Array<{ error?: unknown }>) : [];
  const userError = text(body.userError) ?? text(wrapped[0]?.error);
  if (userError && UNAVAILABLE.has(userError)) {
    return { status: "unavailable", reason: `VIES answered ${userError}` };
  }
  if (!response.ok || typeof body.valid !== "boolean") {
    if (userError === "INVALID_INPUT") return answered(false, body, now);
    return { status: "unavailable", reason: `VIES answered HTTP ${response.status}` };
  }
  return answered(body.valid, body, now);
}

function answered(valid: boolean, body: Record<string, unknown>, now: () => Date): ViesAnswer {
  const date = typeof body.requestDate === "string" ? new Date(body.requestDate) : null;
  return {
    status: valid ? "valid" : "invalid",
    checkedAt: date && !Number.isNaN(date.getTime()) ? date : now(),
    requestIdentifier: text(body.requestIdentifier),
    name: text(body.name),
  };
}
