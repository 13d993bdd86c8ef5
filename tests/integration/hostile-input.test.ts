/**
 * Hostile input (issue 15, item 3), with fast-check: malformed, oversized, wrongly typed and hostile
 * values (script tags, SQL fragments, CRLF and commas, NUL and control characters, lone surrogates,
 * huge/negative/NaN numbers, bad percent-encoding, duplicate parameters, wrong content types, JSON to
 * form routes and forms to JSON APIs) thrown at every route of app/routes.ts, its GET and its action,
 * as a visitor, a client and an admin. Every answer is a 2xx/3xx or a 4xx with a message, never a 5xx
 * and never a stack trace. Bodies over the limits get 413. A failing run prints fast-check's seed and
 * path (`fc.assert` does), so it can be replayed with `{ seed, path }`.
 *
 * That stored payloads are shown as text and never run is checked in a browser:
 * tests/e2e/stored-input.spec.ts.
 */
import { readFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import path from "node:path";
import type { RouteConfigEntry } from "@react-router/dev/routes";
import { eq } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  carePlans,
  contactMessages,
  messageAttachments,
  orderMessages,
  services,
  watchedDomains,
} from "~/db/schema";
import { MESSAGE_POST_MAX_BYTES, MESSAGE_POST_TOO_LARGE } from "~/features/orders/attachments";
import { SAMPLE_JPEG, SAMPLE_PDF, SAMPLE_PNG, SAMPLE_ZIP } from "~/features/testing/sample-files";
import routes from "~/routes";
import { createAccount, createOrder, FIXTURE_PASSWORD } from "../support/admin-fixtures";
import { Session } from "../support/browserless";
import { testDatabases } from "../support/databases";
import { createSubscription } from "../support/plans";
import { signedInClient } from "../support/portal";
import { staleRefundFormToken } from "../support/refunds";
import { startTestServer, type TestServer } from "../support/server";

/** Route patterns of app/routes.ts (index: ""), with their module files. */
function patterns(entries: RouteConfigEntry[], prefix = ""): Array<{ path: string; file: string }> {
  const out: Array<{ path: string; file: string }> = [];
  for (const e of entries) {
    const full = e.index ? prefix : e.path ? (prefix ? `${prefix}/${e.path}` : e.path) : prefix;
    if (e.index || e.path !== undefined) out.push({ path: full, file: e.file });
    if (e.children) out.push(...patterns(e.children, full));
  }
  return out;
}
const ROUTES = [...new Set(patterns(routes).map((r) => r.path))];
/** The routes whose module has an action (the rest answer a POST with 405). */
const ACTION_ROUTES = patterns(routes)
  .filter(({ file }) =>
    /export\s+(async\s+)?function\s+action\b|export\s+const\s+action\b/.test(
      readFileSync(path.resolve("app", file), "utf8"),
    ),
  )
  .map((r) => r.path);

// ---------------------------------------------------------------------------------------------------
// Arbitraries

/** Any UTF-16 code unit: controls, NUL, lone surrogates and all. */
const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));

const NASTY = [
  "<script>window.__xss=1</script>",
  '"><img src=x onerror=alert(1)>',
  "</textarea><svg onload=alert(1)>",
  "javascript:alert(1)",
  "' OR '1'='1",
  "'; DROP TABLE orders; --",
  "1; select pg_sleep(10)--",
  "%' union select password from account --",
  "Robert\r\nBcc: victim@example.com",
  "Alice, boss@victim.example,",
  "a\r\nSet-Cookie: x=1",
  "\u0000",
  "nul\u0000inside",
  "\u0001\u0008\u001b[31m\u007f",
  "\ud800",
  "\udfff lone",
  "\u202e\u200b\ufeff",
  "🦄👩‍👩‍👧",
  "NaN",
  "-1",
  "-0",
  "0",
  "1e309",
  "-1e309",
  "Infinity",
  "99999999999999999999999999",
  "0x10",
  "1.000000000000000000001",
  "../../../../etc/passwd",
  "%00",
  "%E0%A4%A",
  "{{7*7}}",
  "$" + "{7*7}",
  "__proto__",
  "constructor",
  "[object Object]",
  "",
  " ",
];

const hostile: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NASTY) },
  { weight: 2, arbitrary: fc.string({ unit: codeUnit, maxLength: 30 }) },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 30 }) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 10 }) },
  // Long, but under the body limit: a field far over its own maximum.
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom(...NASTY), fc.integer({ min: 50, max: 2000 }))
      .map(([s, n]) => (s || "x").repeat(n).slice(0, 20_000)),
  },
  { weight: 1, arbitrary: fc.oneof(fc.double(), fc.integer(), fc.bigInt()).map(String) },
  { weight: 1, arbitrary: fc.emailAddress() },
  { weight: 1, arbitrary: fc.uuid() },
  {
    weight: 1,
    arbitrary: fc.tuple(fc.constantFrom(...NASTY), fc.emailAddress()).map(([a, b]) => `${a}${b}`),
  },
);

/** Hostile values short enough for an address (Node refuses request lines over 16 KB with a bare 431). */
const hostileShort: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NASTY) },
  { weight: 2, arbitrary: fc.string({ unit: codeUnit, maxLength: 20 }) },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 20 }) },
  { weight: 1, arbitrary: fc.oneof(fc.double(), fc.integer(), fc.bigInt()).map(String) },
  { weight: 1, arbitrary: fc.uuid() },
);

/** Percent-encodes every code unit; a lone surrogate becomes bytes that are not UTF-8. */
function encodeLoosely(s: string): string {
  let out = "";
  for (const ch of s) {
    const code = ch.codePointAt(0)!;
    if (code >= 0xd800 && code <= 0xdfff)
      out += `%ED%${(0xa0 + ((code >> 6) & 0x1f)).toString(16).toUpperCase()}%80`;
    else out += encodeURIComponent(ch);
  }
  return out;
}

/** A path segment or query value as an attacker writes it: encoded, raw bad escapes, or both. */
const urlPart: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: hostileShort.map(encodeLoosely) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      "%",
      "%Z",
      "%ZZ",
      "%E0%A4%A",
      "%C0%AF",
      "%FF",
      "%00",
      "%2e%2e",
      "%2F",
      "%0D%0A",
      "%u0041",
      "%%",
      "%25",
      "..",
    ),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(hostileShort, fc.constantFrom("%", "%E0", "%zz"))
      .map(([s, bad]) => `${encodeLoosely(s)}${bad}`),
  },
);

const QUERY_KEYS = [
  "q",
  "status",
  "page",
  "currency",
  "package",
  "redirectTo",
  "token",
  "session",
  "error",
  "verified",
  "request",
  "done",
  "reset",
  "order_id",
  "amount",
  "since",
  "callbackURL",
  "type",
  "index",
  "_data",
];
const FIELD_NAMES = [
  "name",
  // Watched domains (issue 39).
  "selectors",
  "expiry",
  "domainId",
  "email",
  "subject",
  "message",
  "password",
  "confirmPassword",
  "currentPassword",
  "newPassword",
  "intent",
  "id",
  "back",
  "to",
  "note",
  "reason",
  "reference",
  "body",
  "currency",
  "package",
  "quantity",
  "checkoutToken",
  "session",
  "token",
  "phone",
  "company",
  "description",
  "price.basic",
  "website",
  "rememberMe",
  "status",
  "code",
  "trustDevice",
  "problem",
  "since",
  "urgency",
  "files",
  "clientId",
  "requestId",
  "discount",
  "depositPercent",
  "validUntil",
  "terms",
  "lines.0.kind",
  "lines.0.item",
  "lines.0.quantity",
  "lines.0.unitPrice",
  "lines.1.description",
  "lines.7.remove",
  "domain",
  "periodId",
];
const INTENTS = [
  "twoFactorStart",
  "twoFactorConfirm",
  "twoFactorCancel",
  "twoFactorDisable",
  "twoFactorBackupCodes",

  "profile",
  "password",
  "read",
  "remove",
  "read-all",
  "save",
  "send",
  "revise",
  "newsletter",
  "check",
  "resend",
  "pay",
  "cancel",
  "mark-paid",
  "void",
  "reply",
  "unread",
  "brief",
  "message",
  "covered",
];

/** Name/value pairs, names repeated at will (duplicate parameters). */
const pairs = (names: string[]) =>
  fc.array(
    fc.tuple(
      fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...names) }, { weight: 1, arbitrary: hostile }),
      fc.oneof({ weight: 4, arbitrary: hostile }, { weight: 1, arbitrary: fc.constantFrom(...INTENTS) }),
    ),
    { maxLength: 12 },
  );

/** Request headers an attacker controls, with values Node's client will put on the wire (no CR, LF, NUL). */
const headerValue = fc
  .oneof(
    hostileShort,
    fc.constantFrom(
      "[::1",
      "a b",
      "x:99999",
      "%zz",
      "[zz]",
      "@@",
      "evil.example:-1",
      "127.0.0.1:0",
      "",
      "\t",
    ),
  )
  .map((v) => v.replace(/[^\t\x20-\x7e\x80-\xff]/g, "?"));
const HEADER_NAMES = [
  "host",
  "x-forwarded-host",
  "x-forwarded-proto",
  "x-forwarded-for",
  "accept-language",
  "cookie",
  "last-event-id",
  "accept",
  "if-none-match",
  "range",
  "x-request-id",
  "cf-ipcountry",
  "sec-fetch-site",
];
const hostileHeaders = fc.dictionary(fc.constantFrom(...HEADER_NAMES), headerValue, { maxKeys: 3 });

type Actor = "anon" | "client" | "admin";
const actor = fc.constantFrom<Actor>("anon", "client", "admin");

/** A concrete path for a route pattern, its parameters and splat filled with hostile parts. */
const pathFor = (pattern: string) =>
  fc.array(urlPart, { minLength: 1, maxLength: 3 }).map((parts) => {
    let i = 0;
    const next = () => parts[i++ % parts.length]!;
    const filled = pattern
      .split("/")
      .map((seg) => (seg.startsWith(":") ? next() : seg === "*" ? `${next()}/${next()}` : seg))
      .join("/");
    return `/${filled}`;
  });

const queryString = fc
  .array(fc.tuple(fc.oneof(fc.constantFrom(...QUERY_KEYS), urlPart), urlPart), { maxLength: 6 })
  .map((qs) => (qs.length ? `?${qs.map(([k, v]) => `${encodeLoosely(k)}=${v}`).join("&")}` : ""));

/** A request target: a real route with hostile parameters, or a real route's path with junk added. */
const target = fc
  .oneof(
    { weight: 4, arbitrary: fc.constantFrom(...ROUTES).chain((p) => fc.tuple(pathFor(p), queryString)) },
    {
      weight: 1,
      arbitrary: fc.tuple(
        fc
          .constantFrom(...ROUTES)
          .chain((p) => pathFor(p))
          .chain((p) => urlPart.map((x) => `${p}/${x}`)),
        queryString,
      ),
    },
  )
  .map(([path, query]) => `${path}${query}`);

// JSON bodies: wrong types, deep nesting, numbers out of range, and text that is not JSON at all.
const jsonValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    hostile,
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 3 }),
    fc.dictionary(fc.oneof(fc.constantFrom(...FIELD_NAMES), hostile), tie("value"), { maxKeys: 4 }),
  ),
})).value;
const jsonBody = fc.oneof(
  fc
    .dictionary(
      fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...FIELD_NAMES) }, { weight: 1, arbitrary: hostile }),
      jsonValue,
      { maxKeys: 8 },
    )
    .map((o) => JSON.stringify(o)),
  jsonValue.map((v) => JSON.stringify(v) ?? "null"),
  fc.constantFrom(
    '{"name":',
    "[",
    "{}}",
    "\u0000",
    "",
    "1e999999",
    '{"__proto__":{"admin":true}}',
    '{"email":{"$ne":null}}',
    `${"[".repeat(5000)}${"]".repeat(5000)}`,
  ),
);

type Body = { type: string | null; data: string | Buffer };
const CONTENT_TYPES = [
  "application/x-www-form-urlencoded",
  "application/x-www-form-urlencoded; charset=utf-16",
  "multipart/form-data; boundary=xyz",
  "multipart/form-data",
  "application/json",
  "application/json; charset=latin1",
  "text/plain",
  "application/xml",
  "text/html",
  "application/octet-stream",
  "foo/bar; ;;=",
];
const body: fc.Arbitrary<Body> = fc.oneof(
  // A form, as a browser would send it.
  {
    weight: 4,
    arbitrary: pairs(FIELD_NAMES).map((p) => ({
      type: "application/x-www-form-urlencoded",
      data: new URLSearchParams(p).toString(),
    })),
  },
  // Multipart, well formed.
  {
    weight: 2,
    arbitrary: pairs(FIELD_NAMES).map((p) => {
      const boundary = "----hostile7MA4YWxkTrZu0gW";
      const parts = p.map(
        ([k, v]) =>
          `--${boundary}\r\nContent-Disposition: form-data; name="${k.replace(/["\r\n]/g, "_")}"\r\n\r\n${v}\r\n`,
      );
      return {
        type: `multipart/form-data; boundary=${boundary}`,
        data: `${parts.join("")}--${boundary}--\r\n`,
      };
    }),
  },
  // JSON to anything (pages must refuse it; the APIs must validate it).
  { weight: 3, arbitrary: jsonBody.map((data) => ({ type: "application/json", data })) },
  // A form to anything (the JSON APIs must refuse it).
  {
    weight: 1,
    arbitrary: pairs(FIELD_NAMES).map((p) => ({
      type: "application/x-www-form-urlencoded",
      data: new URLSearchParams(p).toString(),
    })),
  },
  // Mislabelled or unlabelled bodies, raw bytes, bad percent-encoding in a form.
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        fc.oneof(fc.constantFrom<string | null>(...CONTENT_TYPES, null)),
        fc.oneof(
          jsonBody,
          urlPart.map((v) => `email=${v}&name=%&password=%E0%A4%A&intent=${v}`),
          fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b)),
        ),
      )
      .map(([type, data]) => ({ type, data })),
  },
);

// ---------------------------------------------------------------------------------------------------
// The client

interface Answer {
  status: number;
  type: string;
  text: string;
}

/** A raw request (the path is sent byte for byte, bad escapes included); event streams are cut short. */
function raw(
  base: string,
  method: string,
  target: string,
  headers: Record<string, string>,
  payload?: string | Buffer,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const url = new URL(base);
    // An explicit length: Node's client sends a GET/OPTIONS/DELETE body without one otherwise.
    const sized =
      payload === undefined ? headers : { ...headers, "content-length": String(Buffer.byteLength(payload)) };
    const req = httpRequest({
      host: url.hostname,
      port: url.port,
      method,
      path: target,
      headers: sized,
      agent: false,
    });
    req.setTimeout(20_000, () => req.destroy(new Error(`no answer in 20 s: ${method} ${target}`)));
    req.on("response", (res) => {
      const type = String(res.headers["content-type"] ?? "");
      if (type.startsWith("text/event-stream")) {
        res.destroy();
        resolve({ status: res.statusCode ?? 0, type, text: "" });
        return;
      }
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, type, text: Buffer.concat(chunks).toString("utf8") }),
      );
      res.on("error", reject);
    });
    req.on("error", reject);
    if (payload !== undefined) req.end(payload);
    else req.end();
  });
}

/** Signs of an internal error leaking out: a stack frame, a source path, an exception's name. */
const LEAK =
  /\n\s+at\s|at async |node_modules|\/work\/|\.tsx?:\d+:\d+|build\/server\/|(TypeError|ReferenceError|SyntaxError|RangeError): |PostgresError|DrizzleQueryError|Failed query:|ECONNREFUSED/;

function problems(label: string, a: Answer): string[] {
  const out: string[] = [];
  if (a.status >= 500) out.push(`${label}: ${a.status} ${a.text.slice(0, 300)}`);
  const leak = a.text.match(LEAK);
  if (leak)
    out.push(
      `${label}: leaks "${leak[0]}" in ${a.text.slice(Math.max(0, (leak.index ?? 0) - 100), (leak.index ?? 0) + 200)}`,
    );
  if (a.status >= 400 && a.text.trim() === "") out.push(`${label}: ${a.status} without a message`);
  return out;
}

describe.each(testDatabases)("hostile input on $name", (database) => {
  let server: TestServer;
  let cookies: Record<Actor, string>;
  let ip = 0;
  const nextIp = () => `198.20.${Math.floor(++ip / 250) % 250}.${(ip % 250) + 1}`;

  beforeAll(async () => {
    server = await startTestServer(database, {
      TRUST_PROXY: "loopback",
      CONTACT_RATE_LIMIT_PER_HOUR: "100000",
      // The free domain check (/check) only ever sees refused names here; should a hostile value ever be
      // a real domain, its DNS questions go to a closed port on this machine, never to the internet.
      DNS_SERVERS: "127.0.0.1:9",
    });
    const db = server.portico.runtime.database.db;
    const client = await signedInClient(server.url, db, "Hostile Client");
    const order = await createOrder(db, client.userId);
    const paidOrder = await createOrder(db, client.userId, {
      status: "paid",
      serviceSlug: "per-incident-support",
    });
    const [message] = await db
      .insert(contactMessages)
      .values({ name: "Vi", email: "vi@example.com", subject: "Hi", message: "Hello there", source: "site" })
      .returning();
    const [service] = await db.select().from(services).where(eq(services.slug, "email-migration"));
    const [plan] = await db.select().from(carePlans).where(eq(carePlans.slug, "care-plus"));
    ids = {
      orderId: order.orderId,
      paidOrderId: paidOrder.orderId,
      invoiceId: order.invoiceId,
      messageId: message!.id,
      serviceId: service!.id,
      planId: plan!.id,
      subscriptionId: await createSubscription(db, { clientId: client.userId, anchorDay: "2026-01-05" }),
      domainId: (
        await db
          .insert(watchedDomains)
          .values({ clientId: client.userId, name: "hostile-domain.com", displayName: "hostile-domain.com" })
          .returning({ id: watchedDomains.id })
      )[0]!.id,
    };
    await createAccount(db, { email: "hostile.admin@example.com", name: "Hostile Admin", role: "admin" });
    const admin = new Session(server.url, "198.20.250.1");
    const login = await admin.post("/client/login", {
      email: "hostile.admin@example.com",
      password: FIXTURE_PASSWORD,
    });
    expect(login.status).toBe(302);
    cookies = { anon: "", client: client.session.cookieHeader, admin: admin.cookieHeader };
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  /** Each action's valid form, as the site's own pages post it (ids of real rows). */
  interface Form {
    as: Actor;
    path: () => string;
    fields: () => Record<string, string>;
    json?: true;
  }
  let ids: {
    orderId: string;
    paidOrderId: string;
    invoiceId: string;
    messageId: string;
    serviceId: string;
    planId: string;
    subscriptionId: string;
    domainId: string;
  };
  const contact = () => ({
    name: "Hostile Visitor",
    email: `visitor.${++ip}@example.com`,
    subject: "Question",
    message: "A question about a migration.",
  });
  const FORMS: Form[] = [
    { as: "anon", path: () => "/?index", fields: contact },
    {
      as: "anon",
      path: () => "/?index",
      fields: () => ({ intent: "newsletter", email: `news.${++ip}@example.com` }),
    },
    { as: "anon", path: () => "/api/send-email", fields: contact, json: true },
    { as: "client", path: () => "/client/dashboard", fields: contact },
    {
      as: "anon",
      path: () => "/client/register",
      fields: () => ({
        name: "New Person",
        email: `reg.${++ip}@example.com`,
        password: FIXTURE_PASSWORD,
        confirmPassword: FIXTURE_PASSWORD,
      }),
    },
    {
      as: "anon",
      path: () => "/client/login",
      fields: () => ({ email: `login.${++ip}@example.com`, password: "Wr0ng!Pass" }),
    },
    {
      as: "anon",
      path: () => "/client/forgot-password",
      fields: () => ({ email: `forgot.${++ip}@example.com` }),
    },
    {
      as: "anon",
      path: () => "/client/reset-password",
      fields: () => ({ token: "forged", password: FIXTURE_PASSWORD, confirmPassword: FIXTURE_PASSWORD }),
    },
    {
      as: "client",
      path: () => "/client/profile",
      fields: () => ({ intent: "profile", name: "Hostile Client", phone: "+1 555 0100", company: "Acme" }),
    },
    {
      as: "client",
      path: () => "/client/profile",
      fields: () => ({
        intent: "password",
        currentPassword: "Wr0ng!Pass1",
        newPassword: "N3w!Passw0rd#x",
        confirmPassword: "N3w!Passw0rd#x",
      }),
    },
    { as: "client", path: () => "/client/services", fields: () => ({ currency: "EUR" }) },
    {
      as: "client",
      path: () => "/client/purchase/email-migration",
      fields: () => ({ checkoutToken: "x", package: "basic", quantity: "20", currency: "USD" }),
    },
    // An incident covered by a care plan (issue 38, item 6): only the period asked for and the token.
    {
      as: "client",
      path: () => "/client/purchase/per-incident-support",
      fields: () => ({
        intent: "covered",
        checkoutToken: "hostileCoveredToken1",
        periodId: "00000000-0000-4000-8000-000000000000",
      }),
    },
    // Subscribing to a care plan (issue 38): only the cycle and the form's token are read.
    {
      as: "client",
      path: () => "/client/plans/subscribe/care-plus",
      fields: () => ({ checkoutToken: "x", cycle: "monthly", currency: "EUR" }),
    },
    // A change to the client's plan (issue 38): the preview's fingerprint and a reason; a card's token.
    {
      as: "client",
      path: () => `/client/plans/${ids.subscriptionId}/cancel`,
      fields: () => ({ shown: "end:2026-02-05:", reason: "Too expensive" }),
    },
    {
      as: "client",
      path: () => `/client/plans/${ids.subscriptionId}/card`,
      fields: () => ({ token: "hostile-card-token-0123456789" }),
    },
    // Watched domains (issue 39): a name and DKIM selectors; a domain's selectors and typed expiry.
    {
      as: "client",
      path: () => "/client/domains",
      fields: () => ({ name: `hostile-${++ip}.com`, selectors: "s1" }),
    },
    {
      as: "client",
      path: () => `/client/domains/${ids.domainId}`,
      fields: () => ({ intent: "update", selectors: "s1, google", expiry: "2027-05-31" }),
    },
    // The owner's check now, of a domain that does not exist (a real one would be looked up).
    {
      as: "admin",
      path: () => "/admin/domains",
      fields: () => ({ domainId: "00000000-0000-4000-8000-000000000000" }),
    },
    {
      as: "client",
      path: () => "/client/notifications",
      fields: () => ({ intent: "read-all", back: "/client/dashboard" }),
    },
    { as: "client", path: () => `/client/invoices/${ids.invoiceId}/pay`, fields: () => ({}) },
    {
      as: "client",
      path: () => `/client/orders/${ids.paidOrderId}`,
      fields: () => ({ intent: "brief", problem: "Mail is down", since: "Monday", urgency: "High" }),
    },
    {
      as: "client",
      path: () => `/client/orders/${ids.orderId}`,
      fields: () => ({ intent: "message", body: "Hello, a question about the order." }),
    },
    { as: "anon", path: () => "/client/verify-email", fields: () => ({ intent: "check" }) },
    { as: "anon", path: () => "/client/two-factor", fields: () => ({ code: "123456", trustDevice: "on" }) },
    {
      as: "client",
      path: () => "/client/profile",
      fields: () => ({ intent: "twoFactorStart", password: "Wr0ng!Pass1" }),
    },
    {
      as: "admin",
      path: () => "/admin/two-factor",
      fields: () => ({ intent: "twoFactorConfirm", code: "123456" }),
    },
    {
      as: "anon",
      path: () => "/payments/sandbox/checkout",
      fields: () => ({ intent: "cancel", session: "forged" }),
    },
    {
      as: "admin",
      path: () => `/admin/orders/${ids.orderId}`,
      fields: () => ({ to: "in_progress", note: "Started" }),
    },
    {
      as: "admin",
      path: () => `/admin/invoices/${ids.invoiceId}`,
      fields: () => ({ intent: "mark-paid", reference: "BANK-1" }),
    },
    {
      as: "admin",
      path: () => `/admin/messages/${ids.messageId}`,
      fields: () => ({ intent: "reply", subject: "Re: Question", body: "Thanks." }),
    },
    {
      // The owner's quote editor (issue "quotes"): a catalogue line and a free line.
      as: "admin",
      path: () => "/admin/quotes/new",
      fields: () => ({
        intent: "save",
        clientId: "",
        requestId: "",
        name: "Hostile Quote",
        email: "hostile.quote@example.com",
        discount: "1",
        depositPercent: "30",
        validUntil: "2099-01-01",
        terms: "Pay within 7 days.",
        "lines.0.kind": "catalogue",
        "lines.0.item": `${ids.serviceId}:basic`,
        "lines.0.quantity": "2",
        "lines.0.unitPrice": "",
        "lines.1.kind": "free",
        "lines.1.description": "Work",
        "lines.1.quantity": "1",
        "lines.1.unitPrice": "10",
      }),
    },
    {
      as: "admin",
      path: () => `/admin/catalogue/${ids.serviceId}`,
      fields: () => ({
        name: "Email Migration",
        description: "Move every mailbox to a new provider.",
        "price.basic": "4",
      }),
    },
    // The free domain check (issue 39, item 6): a refused name, so no check runs (this server has no
    // domain world); the hostile fields then replace it or join it.
    { as: "anon", path: () => "/check", fields: () => ({ domain: "localhost" }) },
    // The owner's care plans (issue 38, ADR 0530): a new plan, and an edit of a seeded one.
    ...[() => "/admin/plans/new", () => `/admin/plans/${ids.planId}`].map(
      (path): Form => ({
        as: "admin",
        path,
        fields: () => ({
          intent: "save",
          name: "Care Hostile",
          slug: `care-hostile-${++ip}`,
          description: "A plan the hostile-input test saves.",
          included: "Monthly check\nSSL watch",
          monthlyPrice: "49",
          yearlyPrice: "490",
          incidentAllowance: "1",
          watchedDomains: "1",
          sortOrder: "3",
          active: "on",
        }),
      }),
    ),
  ];

  // ---- Issue 35 item 8 (a refund once per click): the back office refund form's three steps, each
  // with a token the server issued for the invoice (the review and Back write nothing; a confirmed
  // refund of an unpaid invoice is refused). ----
  FORMS.push(
    ...(["refund-review", "refund-back", "refund"] as const).map(
      (intent): Form => ({
        as: "admin",
        path: () => `/admin/invoices/${ids.invoiceId}`,
        fields: () => ({
          intent,
          token: staleRefundFormToken(server, ids.invoiceId),
          amount: "1.50",
          reason: "Hostile refund",
          reference: "BT-HOSTILE-1",
        }),
      }),
    ),
  );
  // ---- end of issue 35 item 8 ----

  const headersFor = (who: Actor, extra: Record<string, string> = {}) => ({
    ...(cookies[who] ? { cookie: cookies[who] } : {}),
    "x-forwarded-for": nextIp(),
    ...extra,
  });

  it("answers 400 to a Host or forwarded host that no address can carry (was a 500 on every page)", async () => {
    for (const [name, value] of [
      ["host", "a b"],
      ["host", "[::1"],
      ["host", "[zz]"],
      ["host", "%zz"],
      ["host", "127.0.0.1:99999"],
      ["x-forwarded-host", "[::1"],
    ] as const) {
      for (const [method, path] of [
        ["GET", "/"],
        ["GET", "/robots.txt"],
        ["GET", "/api/exchange-rates"],
        ["GET", "/client/dashboard"],
        ["POST", "/client/login"],
      ] as const) {
        const answer = await raw(
          server.url,
          method,
          path,
          headersFor("client", { [name]: value, "content-type": "application/x-www-form-urlencoded" }),
          method === "POST" ? "email=a%40example.com&password=x" : undefined,
        );
        expect(answer.status, `${method} ${path} ${name}: ${value}`).toBe(400);
        expect(answer.text).toBe("Bad request: the Host header is not valid.");
      }
    }
    // An ordinary host, with or without a port, and a trusted proxy's host are still served.
    for (const host of ["127.0.0.1", "portico.example:8443", "[::1]:3000"]) {
      expect((await raw(server.url, "GET", "/robots.txt", headersFor("anon", { host }))).status).toBe(200);
    }
    const viaProxy = await raw(
      server.url,
      "GET",
      "/robots.txt",
      headersFor("anon", { "x-forwarded-host": "it.example" }),
    );
    expect(viaProxy.status).toBe(200);
  });

  it("answers 405 to methods outside the usual ones (TRACE was a 500 everywhere)", async () => {
    for (const method of ["TRACE", "PROPFIND", "MKCOL", "PURGE"]) {
      for (const path of ["/", "/client/login", "/api/send-email", "/api/events", "/client/dashboard.data"]) {
        const answer = await raw(server.url, method, path, headersFor("client", { origin: server.url }));
        expect(answer.status, `${method} ${path}`).toBe(405);
        expect(answer.text).toBe("Method not allowed.");
      }
    }
  });

  it("answers hostile addresses and queries on every route without a 5xx or a stack trace", async () => {
    const seen: string[] = [];
    await fc.assert(
      fc.asyncProperty(target, actor, hostileHeaders, async (path, who, extra) => {
        const headers = headersFor(who);
        // The session cookie stays (a hostile one is added to it), so signed-in pages are reached too.
        const cookie = [headers.cookie, extra.cookie].filter(Boolean).join("; ");
        const all = { ...headers, ...extra, ...(cookie ? { cookie } : {}) };
        const answer = await raw(server.url, "GET", path, all);
        const found = problems(`${who} GET ${path} ${JSON.stringify(extra)}`, answer);
        seen.push(String(answer.status));
        expect(found).toEqual([]);
      }),
      { numRuns: 150 },
    );
    // The runs reached real pages, not only the 400 for malformed addresses.
    expect(seen.filter((s) => s === "200").length).toBeGreaterThan(10);
  }, 120_000);

  it("answers hostile bodies to every action and API without a 5xx or a stack trace", async () => {
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(
        fc
          .oneof(
            { weight: 5, arbitrary: fc.constantFrom(...ACTION_ROUTES) },
            { weight: 1, arbitrary: fc.constantFrom(...ROUTES) },
          )
          .chain((p) =>
            fc.tuple(
              pathFor(p).chain((x) =>
                fc.constantFrom(x, `${x}.data`, `${x === "/" ? "/_root" : x}.data?_routes=%00,zz`),
              ),
              fc.constantFrom("", "?index", "?redirectTo=%2F%2Fevil.example"),
            ),
          ),
        actor,
        body,
        // CONNECT is left out: Node's HTTP server itself closes such a connection (no 'connect' handler).
        fc.constantFrom("POST", "POST", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE"),
        async ([path, query], who, b, method) => {
          // Signing out would end the session the other runs use.
          const as: Actor = path.startsWith("/client/sign-out") ? "anon" : who;
          const headers = headersFor(as, {
            origin: server.url,
            ...(b.type ? { "content-type": b.type } : {}),
          });
          const answer = await raw(server.url, method, `${path}${query}`, headers, b.data);
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
          expect(
            problems(`${as} ${method} ${path}${query} (${b.type}) ${String(b.data).slice(0, 200)}`, answer),
          ).toEqual([]);
        },
      ),
      { numRuns: 200 },
    );
    // Actions ran with their validation (400/422-style answers and successes), not only 415s and 404s.
    expect([...statuses.keys()].some((s) => s >= 200 && s < 300)).toBe(true);
    expect(statuses.get(400) ?? 0).toBeGreaterThan(5);
  }, 120_000);

  it("keeps its footing when one or more fields of an otherwise valid form are hostile", async () => {
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...FORMS),
        fc.dictionary(fc.constantFrom(...FIELD_NAMES), hostile, { maxKeys: 3 }),
        fc.boolean(),
        async (form, overrides, duplicate) => {
          const fields = { ...form.fields(), ...overrides };
          const params = new URLSearchParams(fields);
          // Duplicate parameters: the same names again with other values.
          if (duplicate) for (const [k] of Object.entries(overrides)) params.append(k, "second value");
          const json = form.json === true;
          const payload = json ? JSON.stringify(fields) : params.toString();
          const headers = headersFor(form.as, {
            origin: server.url,
            "content-type": json ? "application/json" : "application/x-www-form-urlencoded",
          });
          const answer = await raw(server.url, "POST", form.path(), headers, payload);
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
          expect(problems(`${form.as} POST ${form.path()} ${payload.slice(0, 300)}`, answer)).toEqual([]);
        },
      ),
      { numRuns: 100 },
    );
    // Valid forms with a hostile value in an unchecked field still go through.
    expect([...statuses.keys()].some((s) => s >= 200 && s < 400)).toBe(true);
  }, 120_000);

  it("refuses, in words, the names a domain checker must never be aimed at (issue 39)", async () => {
    const names = [
      "localhost",
      "127.0.0.1.nip.io",
      "169.254.169.254",
      `${"x".repeat(296)}.com`,
      "[::1]",
      "10.0.0.5",
    ];
    for (const name of names) {
      const answer = await raw(
        server.url,
        "POST",
        "/client/domains",
        headersFor("client", { origin: server.url, "content-type": "application/x-www-form-urlencoded" }),
        new URLSearchParams({ name }).toString(),
      );
      expect(answer.status, name).toBe(400);
      expect(problems(`client POST /client/domains ${name.slice(0, 40)}`, answer)).toEqual([]);
    }
    const db = server.portico.runtime.database.db;
    const stored = await db.select({ name: watchedDomains.name }).from(watchedDomains);
    expect(stored.map((d) => d.name)).not.toContain("nip.io");
    expect(stored.some((d) => /localhost|^\d|x{20}/.test(d.name))).toBe(false);
  });

  it("refuses bodies over the limit with 413 on every route, sized or chunked, form or JSON", async () => {
    const failures: string[] = [];
    for (const pattern of ROUTES) {
      const path = pattern === "" ? "/?index" : `/${pattern.replace(/:[A-Za-z]+/g, "x").replace("*", "x")}`;
      const big = pattern.startsWith("api/payments/") ? 1024 * 1024 + 10 : 64 * 1024 + 10;
      for (const type of ["application/x-www-form-urlencoded", "application/json"]) {
        const data =
          type === "application/json" ? JSON.stringify({ name: "x".repeat(big) }) : `name=${"x".repeat(big)}`;
        // fetch reads the early 413 even while the server drops the rest of the body.
        const res = await fetch(new URL(path, server.url), {
          method: "POST",
          redirect: "manual",
          headers: headersFor("client", { origin: server.url, "content-type": type }),
          body: data,
        });
        const sized = await res.text();
        if (res.status !== 413 || !/The request is too large/.test(sized))
          failures.push(`${path} ${type}: ${res.status} ${sized.slice(0, 100)}`);
      }
      const chunked = await new Promise<number>((resolve, reject) => {
        const url = new URL(server.url);
        const req = httpRequest({
          host: url.hostname,
          port: url.port,
          method: "POST",
          path,
          // A connection of its own: the last one may have been closed after its 413.
          agent: false,
          headers: headersFor("anon", {
            origin: server.url,
            "content-type": "application/x-www-form-urlencoded",
          }),
        });
        req.on("response", (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        // Once the 413 is in, the server may close while we still write: only an error before it counts.
        req.on("error", (e) => reject(new Error(`${path} chunked: ${e.message}`)));
        for (let i = 0; i < Math.ceil(big / 8192) + 1; i++) req.write(`a=${"b".repeat(8190)}&`);
        req.end();
      });
      // Without a length the body is counted as it comes: an action that reads it is stopped at the limit
      // (413); a route that refuses the request first (405 without an action, 404, a redirect to sign
      // in, 415) answers without reading it. Never a success on a cut-off body, never a 5xx.
      if (chunked < 300 || chunked >= 500) failures.push(`${path} chunked: ${chunked}`);
      if (pattern === "" || pattern === "client/login" || pattern === "client/register") {
        if (chunked !== 413) failures.push(`${path} chunked: ${chunked}, not 413`);
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);

  it("takes hostile file names, types and bytes on the order page without a 5xx, and keeps only clean names", async () => {
    const boundary = "----hostileUpload7MA4YWxkTrZu0gW";
    const fileName = fc.oneof(
      { weight: 3, arbitrary: hostile },
      {
        weight: 2,
        arbitrary: fc.constantFrom(
          "../../etc/passwd",
          "..\\..\\windows\\win.ini",
          "report.pdf\u0000.exe",
          "invoice\u202Efdp.exe",
          "\u0007bell\u001b[31m.txt",
          ".htaccess",
          "...",
          `${"a".repeat(300)}.pdf`,
          'quote"d.pdf',
          "CON.txt",
          "photo.jpg",
          "notes",
        ),
      },
    );
    const content = fc.oneof(
      fc.constantFrom(SAMPLE_PDF, SAMPLE_PNG, SAMPLE_JPEG, SAMPLE_ZIP, new Uint8Array(0)),
      fc.uint8Array({ maxLength: 300 }),
      hostile.map((t) => new TextEncoder().encode(t)),
    );
    const declared = fc.constantFrom(
      "application/pdf",
      "image/png",
      "text/plain",
      "",
      "text/html",
      "x/y; ;=",
    );
    const statuses = new Map<number, number>();
    const upload = async (files: Array<[string, string, Uint8Array]>, text: string) => {
      const head = (name: string, extra = "") =>
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${extra}\r\n`;
      // As a browser writes a file name: quotes and line breaks escaped, the rest as it is.
      const escapeName = (n: string) => n.replace(/"/g, "%22").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
      const parts: Buffer[] = [
        Buffer.from(`${head("intent")}\r\nmessage\r\n${head("body")}\r\n${text}\r\n`),
        ...files.flatMap(([name, type, bytes]) => [
          Buffer.from(
            `${head("files", `; filename="${escapeName(name)}"`)}${type ? `Content-Type: ${type}\r\n` : ""}\r\n`,
          ),
          Buffer.from(bytes),
          Buffer.from("\r\n"),
        ]),
        Buffer.from(`--${boundary}--\r\n`),
      ];
      const answer = await raw(
        server.url,
        "POST",
        `/client/orders/${ids.orderId}`,
        headersFor("client", {
          origin: server.url,
          "content-type": `multipart/form-data; boundary=${boundary}`,
        }),
        Buffer.concat(parts),
      );
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      expect(problems(`upload ${JSON.stringify(files.map(([n]) => n))}`, answer)).toEqual([]);
      return answer.status;
    };
    // A real PDF behind a disguised path and name is taken, cleaned.
    expect(await upload([["../../x/\u202Eevil\u0007.pdf", "application/pdf", SAMPLE_PDF]], "A file.")).toBe(
      200,
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fileName, declared, content), { maxLength: 7 }),
        fc.oneof(hostile, fc.constant("Please see the files.")),
        async (files, text) => {
          await upload(files, text);
        },
      ),
      { numRuns: 60 },
    );
    // Files were refused (400, 413 by their kind, bytes, size or number), never with a 5xx.
    expect(statuses.get(400) ?? 0).toBeGreaterThan(0);
    const db = server.portico.runtime.database.db;
    const kept = await db
      .select({ filename: messageAttachments.filename, contentType: messageAttachments.contentType })
      .from(messageAttachments)
      .innerJoin(orderMessages, eq(orderMessages.id, messageAttachments.messageId))
      .where(eq(orderMessages.orderId, ids.orderId));
    expect(kept.map((k) => k.filename)).toContain("evil.pdf");
    for (const { filename, contentType } of kept) {
      expect(filename).toMatch(/^[^/\\"*:<>?|\p{Cc}\p{Cf}.\s][^/\\"*:<>?|\p{Cc}\p{Cf}]{0,119}$/u);
      expect(contentType).toMatch(
        /^(application\/(pdf|zip)|image\/(png|jpeg)|text\/(plain|csv); charset=utf-8|message\/rfc822)$/,
      );
    }
  }, 180_000);

  it("refuses a body over the order page's own limit with its 413, sized or chunked", async () => {
    // A client of its own: every multipart post is counted against the message rate before its body is
    // read (ADR 0514), and the one above has used it on the fuzzed uploads (its chunked post was a 429).
    const db = server.portico.runtime.database.db;
    const sender = await signedInClient(server.url, db, "Hostile Sender");
    const order = await createOrder(db, sender.userId);
    const path = `/client/orders/${order.orderId}`;
    const url = new URL(server.url);
    const send = (headers: Record<string, string>, chunks: number) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = httpRequest({
          host: url.hostname,
          port: url.port,
          method: "POST",
          path,
          agent: false,
          headers: {
            cookie: sender.session.cookieHeader,
            "x-forwarded-for": nextIp(),
            origin: server.url,
            "content-type": "multipart/form-data; boundary=x",
            ...headers,
          },
        });
        let answered = false;
        req.on("response", (res) => {
          answered = true;
          let body = "";
          res.on("data", (c: Buffer) => {
            body += c.toString();
          });
          res.on("end", () => {
            resolve({ status: res.statusCode ?? 0, body });
            req.destroy();
          });
        });
        req.on("error", (e) => {
          if (!answered) reject(e);
        });
        const chunk = Buffer.alloc(1024 * 1024, 97);
        const write = (i: number) => {
          if (answered || i >= chunks) return;
          if (req.write(chunk)) setImmediate(() => write(i + 1));
          else req.once("drain", () => write(i + 1));
        };
        write(0);
      });
    const sized = await send({ "content-length": String(MESSAGE_POST_MAX_BYTES + 1) }, 1);
    expect(sized).toEqual({ status: 413, body: MESSAGE_POST_TOO_LARGE });
    // Without a length: counted as it comes, and stopped past the limit.
    const chunked = await send({}, Math.ceil(MESSAGE_POST_MAX_BYTES / (1024 * 1024)) + 2);
    expect(chunked.status).toBe(413);
    expect(chunked.body).toBe(MESSAGE_POST_TOO_LARGE);
  }, 60_000);

  // Issue 39, item 6: names aimed at this machine or its network get the free check's 400 and sentence.
  it("refuses hostile domain names on the free check with 400 and the sentence, checking nothing", async () => {
    const names: Array<[string, RegExp]> = [
      ["localhost", /Enter the full domain name with its ending/],
      ["127.0.0.1.nip.io", /Enter the registered domain, nip\.io, not 127\.0\.0\.1\.nip\.io\./],
      ["169.254.169.254", /An IP address is not a domain name/],
      ["[::1]", /An IP address is not a domain name/],
      ["0x7f.1", /An IP address is not a domain name/],
      [
        `${"a".repeat(59)}.`.repeat(5).concat("com"),
        /A domain name has at most 253 characters; this one has 303\./,
      ],
      ["metadata.google.internal", /not a public domain ending/],
      ["https://example.com/", /without https:\/\/, a path or a port/],
      ["%", /is not a valid domain name/],
    ];
    for (const [name, sentence] of names) {
      for (const who of ["anon", "client"] as const) {
        const answer = await raw(
          server.url,
          "POST",
          "/check",
          headersFor(who, { origin: server.url, "content-type": "application/x-www-form-urlencoded" }),
          new URLSearchParams({ domain: name }).toString(),
        );
        expect(problems(`${who} /check ${name}`, answer)).toEqual([]);
        expect(answer.status, name).toBe(400);
        expect(answer.text.replace(/&amp;/g, "&").replace(/&#x27;/g, "'"), name).toMatch(sentence);
        expect(answer.text, name).not.toContain("Result for");
      }
    }
  }, 60_000);

  it("refuses cross-origin posts with 403 whatever the body", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ROUTES).chain(pathFor),
        // Within the body limit: a larger body is refused first, 413 before 403 (the test above).
        body.filter((b) => Buffer.byteLength(b.data) < 60_000),
        fc.constantFrom("https://evil.example", "null", "http://127.0.0.1.evil.example"),
        async (path, b, origin) => {
          const answer = await raw(
            server.url,
            "POST",
            path,
            headersFor("client", { origin, ...(b.type ? { "content-type": b.type } : {}) }),
            b.data,
          );
          // A malformed address is refused first (400) by the guard that needs no body; anything else: 403.
          if (answer.status === 400 && answer.text === "Bad request: the address is not valid.") return;
          expect(answer.status, `${path} from ${origin}`).toBe(403);
          expect(answer.text).toContain("Cross-origin requests are not allowed.");
        },
      ),
      { numRuns: 100 },
    );
  }, 60_000);

  // -------------------------------------------------------------------------------------------------
  // Issue 35, item 5: the quote request forms (the home page's #quote, a client's /client/quotes/new),
  // whose limits now key an address by its IPv6 /64 (rateLimitAddress parses X-Forwarded-For's value).
  // Hostile fields and hostile or odd forwarded addresses: never a 5xx or a stack trace.
  // -------------------------------------------------------------------------------------------------
  it("takes hostile quote requests from hostile or odd addresses without a 5xx (issue 35, item 5)", async () => {
    const address = fc.oneof(
      fc.constantFrom(
        "2001:db8::1",
        "2001:DB8:0:0:1::ffff",
        "::ffff:192.0.2.1",
        "::ffff:999.1.1.1",
        "fe80::1%eth0",
        "::",
        "::1",
        "1.2.3.4.5",
        "2001:db8::1, 198.51.100.7",
        "[2001:db8::1]:443",
      ),
      headerValue,
    );
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<[Actor, string]>(["anon", "/?index"], ["client", "/client/quotes/new"]),
        fc.dictionary(fc.constantFrom("name", "email", "company", "description", "budget"), hostile, {
          maxKeys: 2,
        }),
        address,
        async ([as, path], overrides, forwarded) => {
          const fields = {
            intent: "quote",
            name: "Hostile Quoter",
            email: `quoter.${++ip}@example.com`,
            description: "Move 20 mailboxes.",
            ...overrides,
          };
          const headers = {
            ...headersFor(as, { origin: server.url, "content-type": "application/x-www-form-urlencoded" }),
            "x-forwarded-for": forwarded,
          };
          const answer = await raw(server.url, "POST", path, headers, new URLSearchParams(fields).toString());
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
          expect(problems(`${as} POST ${path} from ${JSON.stringify(forwarded)}`, answer)).toEqual([]);
        },
      ),
      { numRuns: 100 },
    );
    expect([...statuses.keys()].some((s) => s >= 200 && s < 400)).toBe(true);
  }, 120_000);

  // -------------------------------------------------------------------------------------------------
  // Issue 35, items 1, 2 and 4 (h35-metrics): /metrics with forged forwarding headers, and hostile
  // pinned-currency cookies on the cached pages. Neither adds a route; both take attacker input.
  it("refuses /metrics to any forwarded request, and takes hostile currency pins on cached pages", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("x-forwarded-for", "forwarded"),
        fc.oneof(fc.constantFrom("127.0.0.1", "::1", "for=127.0.0.1", "127.0.0.1, 127.0.0.1"), headerValue),
        async (name, value) => {
          // No token here: only this machine's own, unforwarded connection may read it.
          const answer = await raw(server.url, "GET", "/metrics", { [name]: value });
          expect(problems(`/metrics ${name}: ${value}`, answer)).toEqual([]);
          expect(answer.status, `${name}: ${value}`).toBe(404);
          expect(answer.text).not.toContain("portico_http_requests_total");
        },
      ),
      { numRuns: 60 },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("/", "/terms", "/services/ssl-setup", "/api/session"),
        fc.oneof(fc.stringMatching(/^[A-Z]{3}$/), headerValue),
        async (path, pin) => {
          const answer = await raw(server.url, "GET", path, {
            cookie: `portico.currency=${pin.replace(/[;,]/g, "?")}`,
          });
          expect(problems(`${path} pin ${pin}`, answer)).toEqual([]);
          expect(answer.status, `${path} pin ${pin}`).toBe(200);
        },
      ),
      { numRuns: 100 },
    );
  }, 60_000);

  // -------------------------------------------------------------------------------------------------
  // Streamed uploads (issue 35 item 3, ADR 0514): the order page's multipart parser (busboy) facing a
  // bogus boundary and part headers with control characters, and a form whose declared length is over
  // its own limit. A client of its own: the one above has used its message rate on the fuzzed uploads.
  // (A multipart body declared over 51 MB is the test "refuses a body over the order page's own limit".)

  it("refuses upload bodies with a bogus boundary (400), takes part headers with control characters, refuses an oversize declared form (413)", async () => {
    const db = server.portico.runtime.database.db;
    const uploader = await signedInClient(server.url, db, "Hostile Uploader");
    const order = await createOrder(db, uploader.userId, {
      status: "paid",
      serviceSlug: "per-incident-support",
    });
    const path = `/client/orders/${order.orderId}`;
    const post = (contentType: string, payload: Buffer | string, extra: Record<string, string> = {}) =>
      raw(
        server.url,
        "POST",
        path,
        {
          cookie: uploader.session.cookieHeader,
          "x-forwarded-for": nextIp(),
          origin: server.url,
          "content-type": contentType,
          ...extra,
        },
        payload,
      );
    const form = (boundary: string, fileHeader: string) =>
      Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="intent"\r\n\r\nmessage\r\n` +
            `--${boundary}\r\nContent-Disposition: form-data; name="body"\r\n\r\nThe report.\r\n` +
            `--${boundary}\r\n${fileHeader}\r\n\r\n`,
          "latin1",
        ),
        Buffer.from(SAMPLE_PDF),
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
    const pdfHeader =
      'Content-Disposition: form-data; name="files"; filename="report.pdf"\r\nContent-Type: application/pdf';
    const stored = async () =>
      (await db.select().from(orderMessages).where(eq(orderMessages.orderId, order.orderId))).length;
    const unreadable = "The form could not be read. Please try again.";

    // The body's boundary is not the declared one; no boundary at all; an empty one; one busboy cannot take.
    for (const contentType of [
      "multipart/form-data; boundary=declared-but-absent",
      "multipart/form-data",
      'multipart/form-data; boundary=""',
      `multipart/form-data; boundary=${"b".repeat(300)}`,
    ]) {
      const answer = await post(contentType, form("actual-boundary", pdfHeader));
      expect(problems(contentType, answer)).toEqual([]);
      expect(answer.status, contentType).toBe(400);
      expect(answer.text, contentType).toContain(unreadable);
    }
    expect(await stored()).toBe(0);

    // Control characters in a part's headers (a file name as an OS may give it, NUL and ESC included,
    // and one in a header's name): dropped before the parser, the file kept under a clean name.
    const boundary = "----hostileHeaders0514";
    const answer = await post(
      `multipart/form-data; boundary=${boundary}`,
      form(
        boundary,
        'Content-Disposition: form-data; name="files"; filename="re\u0000po\u001b[31mrt\u0007.pdf"\r\nContent\u0001-Type: application/pdf',
      ),
    );
    expect(problems("control characters", answer)).toEqual([]);
    expect(answer.status).toBe(200);
    const kept = await db
      .select({ filename: messageAttachments.filename })
      .from(messageAttachments)
      .innerJoin(orderMessages, eq(orderMessages.id, messageAttachments.messageId))
      .where(eq(orderMessages.orderId, order.orderId));
    expect(kept.map((k) => k.filename)).toEqual(["repo[31mrt.pdf"]);

    // A form without files declared over its 64 KB (the page's limit is the uploads' 51 MB): 413 before
    // it is read, with the form's own message.
    const declared = await new Promise<Answer>((resolve, reject) => {
      const url = new URL(server.url);
      const req = httpRequest({
        host: url.hostname,
        port: url.port,
        method: "POST",
        path,
        agent: false,
        headers: {
          cookie: uploader.session.cookieHeader,
          "x-forwarded-for": nextIp(),
          origin: server.url,
          "content-type": "application/x-www-form-urlencoded",
          "content-length": String(1024 * 1024),
        },
      });
      req.on("response", (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          resolve({
            status: res.statusCode ?? 0,
            type: String(res.headers["content-type"] ?? ""),
            text: Buffer.concat(chunks).toString("utf8"),
          });
          req.destroy();
        });
      });
      req.on("error", reject);
      // A few bytes of the megabyte announced: the answer comes without the rest.
      req.write("intent=message&body=hi");
    });
    expect(problems("declared form", declared)).toEqual([]);
    expect(declared.status).toBe(413);
    expect(declared.text).toContain("The form is too large to send.");
    expect(await stored()).toBe(1);
  }, 60_000);
});
