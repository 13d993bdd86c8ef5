/**
 * The same-origin rule of mutating requests (ARCHITECTURE.md, security bars), enforced for every POST by
 * server/same-origin.ts. Browsers send `Origin` on cross-origin POSTs and `Sec-Fetch-Site` where they
 * support it; a request with neither comes from a non-browser client (a payment provider's webhook,
 * curl), for which no cookie can be forged, so it passes.
 */
export function isCrossSite(input: {
  origin: string | null | undefined;
  fetchSite: string | null | undefined;
  /** The origin the request was addressed to (scheme://host of the request itself). */
  requestOrigin: string;
  publicUrl: string;
}): boolean {
  if (input.fetchSite === "cross-site") return true;
  const { origin } = input;
  if (!origin) return false;
  if (origin === "null") return true;
  return origin !== input.requestOrigin && origin !== new URL(input.publicUrl).origin;
}

export function isCrossSiteRequest(request: Request, publicUrl: string): boolean {
  return isCrossSite({
    origin: request.headers.get("origin"),
    fetchSite: request.headers.get("sec-fetch-site"),
    requestOrigin: new URL(request.url).origin,
    publicUrl,
  });
}
