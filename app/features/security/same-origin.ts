/**
 * The same-origin check of mutating requests (ARCHITECTURE.md, security bars): a request that says where
 * it comes from must come from this site. Requests without Origin (curl, old clients, some no-JS form
 * posts) pass, unless the browser marks them cross-site.
 */
export function isCrossSiteRequest(request: Request, publicUrl: string): boolean {
  if (request.headers.get("sec-fetch-site") === "cross-site") return true;
  const origin = request.headers.get("origin");
  if (!origin || origin === "null") return origin === "null";
  return origin !== new URL(request.url).origin && origin !== new URL(publicUrl).origin;
}
