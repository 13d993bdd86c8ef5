/**
 * The MDN HTTP Observatory's score, computed from its published rules ("Tests and scoring": start at
 * 100, subtract the penalties, then add the bonuses only if the result is 90 or more; A+ is 100+), for
 * the headers and body of a page as the server sends it. It covers the tests that depend on the
 * site (CSP, cookies, CORS, redirection, Referrer-Policy, HSTS, SRI, X-Content-Type-Options,
 * X-Frame-Options, Cross-Origin-Resource-Policy); HSTS preloading is outside the server's control and
 * counts as not preloaded.
 */

export interface ObservatoryInput {
  /** The answer to the same page over plain http (status and Location). */
  overHttp: { status: number; location: string | null };
  /** The page over https: its headers and HTML. */
  headers: Headers;
  html: string;
  /** The site's origin, e.g. https://portico.example. */
  origin: string;
}

export interface ObservatoryResult {
  score: number;
  grade: string;
  tests: Record<string, { result: string; modifier: number }>;
}

const SIX_MONTHS = 15_768_000;

function parseCsp(header: string | null): Map<string, string[]> | null {
  if (!header) return null;
  const directives = new Map<string, string[]>();
  for (const part of header.split(";")) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (!name) continue;
    if (!/^[a-z-]+$/.test(name.toLowerCase())) return null;
    if (!directives.has(name.toLowerCase())) directives.set(name.toLowerCase(), values);
  }
  return directives;
}

function csp(headers: Headers): [string, number] {
  const policy = parseCsp(headers.get("content-security-policy"));
  if (policy === null) {
    return headers.get("content-security-policy")
      ? ["csp-header-invalid", -25]
      : ["csp-not-implemented", -25];
  }
  const fallback = policy.get("default-src") ?? ["*"];
  const scriptSrc = policy.get("script-src") ?? fallback;
  const styleSrc = policy.get("style-src") ?? fallback;
  const hasNonceOrHash = scriptSrc.some((s) => /^'(nonce|sha(256|384|512))-/.test(s));
  const strictDynamic = scriptSrc.includes("'strict-dynamic'");
  // 'unsafe-inline' is ignored by browsers when a nonce or hash is present.
  const scriptUnsafeInline = scriptSrc.includes("'unsafe-inline'") && !hasNonceOrHash;
  const insecure = (values: string[]) =>
    values.some((v) => v === "*" || v === "http:" || v.startsWith("http://") || v === "data:");
  if (scriptUnsafeInline || (insecure(scriptSrc) && !strictDynamic)) {
    return scriptUnsafeInline
      ? ["csp-implemented-with-unsafe-inline", -20]
      : ["csp-implemented-with-insecure-scheme", -20];
  }
  if (scriptSrc.includes("'unsafe-eval'")) return ["csp-implemented-with-unsafe-eval", -10];
  const passive = [...(policy.get("img-src") ?? fallback), ...(policy.get("media-src") ?? fallback)];
  if (passive.some((v) => v === "http:" || v.startsWith("http://"))) {
    return ["csp-implemented-with-insecure-scheme-in-passive-content-only", -10];
  }
  const styleUnsafe =
    styleSrc.includes("'unsafe-inline'") ||
    (policy.get("style-src-attr") ?? []).includes("'unsafe-inline'") ||
    (policy.get("style-src-elem") ?? []).includes("'unsafe-inline'");
  if (styleUnsafe) return ["csp-implemented-with-unsafe-inline-in-style-src-only", 0];
  if (fallback.includes("'none'")) return ["csp-implemented-with-no-unsafe-default-src-none", 10];
  return ["csp-implemented-with-no-unsafe", 5];
}

function cookies(headers: Headers, hsts: boolean): [string, number] {
  const set = headers.getSetCookie();
  if (set.length === 0) return ["cookies-not-found", 0];
  let result: [string, number] = ["cookies-secure-with-httponly-sessions-and-samesite", 5];
  for (const line of set) {
    const attrs = line.split(";").map((a) => a.trim().toLowerCase());
    const name = line.split("=")[0]!.toLowerCase();
    const session = /sess|token|auth|sid/.test(name);
    const secure = attrs.includes("secure");
    const httpOnly = attrs.includes("httponly");
    const sameSite = attrs.find((a) => a.startsWith("samesite="))?.split("=")[1];
    if (session && !secure)
      return hsts
        ? ["cookies-session-without-secure-flag-but-protected-by-hsts", -10]
        : ["cookies-session-without-secure-flag", -40];
    if (session && !httpOnly) return ["cookies-session-without-httponly-flag", -30];
    if (!secure)
      return hsts
        ? ["cookies-without-secure-flag-but-protected-by-hsts", -5]
        : ["cookies-without-secure-flag", -20];
    if (sameSite && sameSite !== "lax" && sameSite !== "strict")
      return ["cookies-samesite-flag-invalid", -20];
    if (!sameSite) result = ["cookies-secure-with-httponly-sessions", 0];
  }
  return result;
}

function hstsTest(headers: Headers): [string, number, boolean] {
  const value = headers.get("strict-transport-security");
  if (!value) return ["hsts-not-implemented", -20, false];
  const maxAge = /max-age=(\d+)/i.exec(value)?.[1];
  if (maxAge === undefined) return ["hsts-header-invalid", -20, false];
  return Number(maxAge) >= SIX_MONTHS
    ? ["hsts-implemented-max-age-at-least-six-months", 0, true]
    : ["hsts-implemented-max-age-less-than-six-months", -10, true];
}

function redirection(input: ObservatoryInput): [string, number] {
  const { status, location } = input.overHttp;
  if (status < 300 || status >= 400 || !location) return ["redirection-missing", -20];
  const target = new URL(location, input.origin.replace(/^https:/, "http:"));
  if (target.protocol !== "https:") return ["redirection-not-to-https-on-initial-redirection", -10];
  if (target.host !== new URL(input.origin).host) return ["redirection-off-host-from-http", -5];
  return ["redirection-to-https", 0];
}

function referrer(headers: Headers): [string, number] {
  const value = headers.get("referrer-policy");
  if (!value) return ["referrer-policy-not-implemented", 0];
  const last = value
    .split(",")
    .map((v) => v.trim().toLowerCase())
    .at(-1)!;
  const privateValues = ["no-referrer", "same-origin", "strict-origin", "strict-origin-when-cross-origin"];
  if (privateValues.includes(last)) return ["referrer-policy-private", 5];
  if (last === "no-referrer-when-downgrade") return ["referrer-policy-no-referrer-when-downgrade", 0];
  if (last === "origin" || last === "origin-when-cross-origin" || last === "unsafe-url")
    return ["referrer-policy-unsafe", -5];
  return ["referrer-policy-header-invalid", -5];
}

function sri(input: ObservatoryInput): [string, number] {
  if (!(input.headers.get("content-type") ?? "").includes("text/html"))
    return ["sri-not-implemented-response-not-html", 0];
  const scripts = [...input.html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"[^>]*>/g)];
  if (scripts.length === 0) return ["sri-not-implemented-but-no-scripts-loaded", 0];
  const origin = new URL(input.origin);
  const external = scripts.filter(([, src]) => new URL(src!, origin).host !== origin.host);
  if (external.length === 0) return ["sri-not-implemented-but-all-scripts-loaded-from-secure-origin", 0];
  const withIntegrity = external.every(([tag]) => /\bintegrity="/.test(tag));
  const secure = external.every(([, src]) => new URL(src!, origin).protocol === "https:");
  if (withIntegrity)
    return secure
      ? ["sri-implemented-and-external-scripts-loaded-securely", 5]
      : ["sri-implemented-but-external-scripts-not-loaded-securely", -20];
  return secure
    ? ["sri-not-implemented-but-external-scripts-loaded-securely", -5]
    : ["sri-not-implemented-and-external-scripts-not-loaded-securely", -50];
}

function xfo(headers: Headers): [string, number] {
  const policy = parseCsp(headers.get("content-security-policy"));
  if (policy?.has("frame-ancestors")) return ["x-frame-options-implemented-via-csp", 5];
  const value = headers.get("x-frame-options")?.trim().toLowerCase();
  if (!value) return ["x-frame-options-not-implemented", -20];
  if (value === "deny" || value === "sameorigin") return ["x-frame-options-sameorigin-or-deny", 0];
  return ["x-frame-options-header-invalid", -20];
}

function corp(headers: Headers): [string, number] {
  const value = headers.get("cross-origin-resource-policy")?.trim().toLowerCase();
  if (!value) return ["cross-origin-resource-policy-not-implemented", 0];
  if (value === "same-origin" || value === "same-site")
    return ["cross-origin-resource-policy-implemented-with-same-origin", 0];
  if (value === "cross-origin") return ["cross-origin-resource-policy-implemented-with-universal-access", 0];
  return ["cross-origin-resource-policy-header-invalid", -5];
}

export function observatoryScore(input: ObservatoryInput): ObservatoryResult {
  const { headers } = input;
  const [hstsResult, hstsModifier, hasHsts] = hstsTest(headers);
  const acao = headers.get("access-control-allow-origin");
  const xcto = headers.get("x-content-type-options")?.trim().toLowerCase();
  const entries: Array<[string, [string, number]]> = [
    ["content-security-policy", csp(headers)],
    ["cookies", cookies(headers, hasHsts)],
    [
      "cross-origin-resource-sharing",
      acao === "*"
        ? ["cross-origin-resource-sharing-implemented-with-universal-access", -50]
        : ["cross-origin-resource-sharing-not-implemented", 0],
    ],
    ["redirection", redirection(input)],
    ["referrer-policy", referrer(headers)],
    ["strict-transport-security", [hstsResult, hstsModifier]],
    ["subresource-integrity", sri(input)],
    [
      "x-content-type-options",
      xcto === "nosniff"
        ? ["x-content-type-options-nosniff", 0]
        : xcto
          ? ["x-content-type-options-header-invalid", -5]
          : ["x-content-type-options-not-implemented", -5],
    ],
    ["x-frame-options", xfo(headers)],
    ["cross-origin-resource-policy", corp(headers)],
  ];
  const tests = Object.fromEntries(entries.map(([name, [result, modifier]]) => [name, { result, modifier }]));
  const modifiers = entries.map(([, [, m]]) => m);
  let score = 100 + modifiers.filter((m) => m < 0).reduce((a, b) => a + b, 0);
  if (score >= 90) score += modifiers.filter((m) => m > 0).reduce((a, b) => a + b, 0);
  score = Math.max(0, score);
  const grades: Array<[number, string]> = [
    [100, "A+"],
    [90, "A"],
    [85, "A-"],
    [80, "B+"],
    [70, "B"],
    [65, "B-"],
    [60, "C+"],
    [50, "C"],
    [45, "C-"],
    [40, "D+"],
    [30, "D"],
    [25, "D-"],
    [0, "F"],
  ];
  const grade = grades.find(([min]) => score >= min)![1];
  return { score, grade, tests };
}
