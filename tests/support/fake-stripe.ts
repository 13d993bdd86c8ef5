/**
 * A fake Stripe API on 127.0.0.1 for the Stripe provider's tests (the SDK's host, port and protocol
 * settings point at it): Checkout Session create (the same idempotency key answers the same session,
 * like Stripe) and retrieve (GET /v1/checkout/sessions/{id}); a test pays or expires a session with
 * `pay(id)` and `expire(id)`, as a customer or time would at Stripe, without any webhook. Refunds
 * (POST /v1/refunds, idempotent by key like Stripe's): answered with `refundStatus`, refused past what
 * the payment holds; `beforeRefundAnswer` runs before the answer (a webhook arriving first).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface FakeStripeSession {
  id: string;
  object: "checkout.session";
  url: string;
  status: "open" | "complete" | "expired";
  payment_status: "unpaid" | "paid";
  amount_total: number | null;
  currency: string | null;
  client_reference_id: string | null;
  metadata: Record<string, string>;
  payment_intent: string | null;
}

export interface FakeStripeRefund {
  id: string;
  object: "refund";
  amount: number;
  currency: string;
  status: "succeeded" | "pending" | "failed";
  payment_intent: string;
  charge: string;
  metadata: Record<string, string>;
  failure_reason: string | null;
}

export interface FakeStripe {
  url: string;
  /** Every Checkout Session create request: its form fields and idempotency key. */
  requests: Array<{ fields: URLSearchParams; idempotencyKey: string | undefined; auth: string | undefined }>;
  /** Every session retrieved, by id, in order. */
  retrieved: string[];
  /** Every session asked to expire (POST /v1/checkout/sessions/{id}/expire), by id, in order. */
  expireRequests: string[];
  /** The next create answers this error instead. */
  failNext: string | null;
  sessions: Map<string, FakeStripeSession>;
  /** Every refund made, by id; and every refund create request (fields and idempotency key). */
  refunds: Map<string, FakeStripeRefund>;
  refundRequests: Array<{ fields: URLSearchParams; idempotencyKey: string | undefined }>;
  /** The status new refunds are made with (succeeded by default). */
  refundStatus: FakeStripeRefund["status"];
  /** Runs before a new refund is answered (e.g. to deliver its webhook first). */
  beforeRefundAnswer: ((refund: FakeStripeRefund) => Promise<void>) | null;
  /** Makes refunds, then drops the connection instead of answering (an answer lost on the way back). */
  dropRefundAnswers: boolean;
  /** The customer pays the session (no webhook is sent). */
  pay(id: string): void;
  expire(id: string): void;
  close(): Promise<void>;
}

function stripeError(
  res: import("node:http").ServerResponse,
  status: number,
  message: string,
  code?: string,
) {
  res.statusCode = status;
  res.end(JSON.stringify({ error: { type: "invalid_request_error", message, ...(code ? { code } : {}) } }));
}

/** The `metadata[key]` fields of a form-encoded request, as Stripe keeps them. */
function metadataOf(fields: URLSearchParams): Record<string, string> {
  const metadata: Record<string, string> = {};
  for (const [k, v] of fields) {
    const m = /^metadata\[(.+)\]$/.exec(k);
    if (m) metadata[m[1]!] = v;
  }
  return metadata;
}

export async function startFakeStripe(): Promise<FakeStripe> {
  const byKey = new Map<string, FakeStripeSession>();
  const sessions = new Map<string, FakeStripeSession>();
  const fake: FakeStripe = {
    url: "",
    requests: [],
    retrieved: [],
    expireRequests: [],
    failNext: null,
    sessions,
    refunds: new Map(),
    refundRequests: [],
    refundStatus: "succeeded",
    beforeRefundAnswer: null,
    dropRefundAnswers: false,
    pay(id) {
      const s = sessions.get(id);
      if (!s) throw new Error(`no session ${id}`);
      Object.assign(s, { status: "complete", payment_status: "paid", payment_intent: `pi_${id}` });
    },
    expire(id) {
      const s = sessions.get(id);
      if (!s) throw new Error(`no session ${id}`);
      s.status = "expired";
    },
    close: async () => {},
  };
  const refundsByKey = new Map<string, FakeStripeRefund>();
  async function createRefund(
    res: import("node:http").ServerResponse,
    body: string,
    key: string | undefined,
  ) {
    const fields = new URLSearchParams(body);
    fake.refundRequests.push({ fields, idempotencyKey: key });
    if (fake.failNext) {
      const message = fake.failNext;
      fake.failNext = null;
      stripeError(res, 400, message);
      return;
    }
    const known = key ? refundsByKey.get(key) : undefined;
    if (known) {
      if (fake.dropRefundAnswers) res.socket?.destroy();
      else res.end(JSON.stringify(known));
      return;
    }
    const intent = fields.get("payment_intent") ?? "";
    const session = [...sessions.values()].find((s) => s.payment_intent === intent);
    if (session?.payment_status !== "paid") {
      stripeError(res, 404, `No such payment_intent: '${intent}'`, "resource_missing");
      return;
    }
    const given = [...fake.refunds.values()]
      .filter((r) => r.payment_intent === intent && r.status !== "failed")
      .reduce((sum, r) => sum + r.amount, 0);
    const amount = Number(fields.get("amount") ?? (session.amount_total ?? 0) - given);
    if (given + amount > (session.amount_total ?? 0)) {
      stripeError(
        res,
        400,
        `Refund amount (${amount}) is greater than unrefunded amount on charge`,
        "amount_too_large",
      );
      return;
    }
    const metadata = metadataOf(fields);
    const refund: FakeStripeRefund = {
      id: `re_test_${fake.refunds.size + 1}`,
      object: "refund",
      amount,
      currency: session.currency ?? "usd",
      status: fake.refundStatus,
      payment_intent: intent,
      charge: `ch_${intent}`,
      metadata,
      failure_reason: fake.refundStatus === "failed" ? "expired_or_canceled_card" : null,
    };
    fake.refunds.set(refund.id, refund);
    if (key) refundsByKey.set(key, refund);
    if (fake.beforeRefundAnswer) await fake.beforeRefundAnswer(refund);
    if (fake.dropRefundAnswers) res.socket?.destroy();
    else res.end(JSON.stringify(refund));
  }

  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      res.setHeader("content-type", "application/json");
      const retrieve = req.method === "GET" ? req.url?.match(/^\/v1\/checkout\/sessions\/([^/?]+)/) : null;
      if (retrieve) {
        const id = decodeURIComponent(retrieve[1]!);
        fake.retrieved.push(id);
        const found = sessions.get(id);
        if (!found) {
          stripeError(res, 404, `No such checkout.session: '${id}'`, "resource_missing");
          return;
        }
        res.end(JSON.stringify(found));
        return;
      }
      const expire =
        req.method === "POST" ? req.url?.match(/^\/v1\/checkout\/sessions\/([^/?]+)\/expire$/) : null;
      if (expire) {
        const id = decodeURIComponent(expire[1]!);
        fake.expireRequests.push(id);
        const found = sessions.get(id);
        if (!found) {
          stripeError(res, 404, `No such checkout.session: '${id}'`, "resource_missing");
          return;
        }
        // Like Stripe: only an open session can be expired.
        if (found.status !== "open") {
          stripeError(res, 400, `Only Checkout Sessions with a status in ["open"] can be expired.`);
          return;
        }
        found.status = "expired";
        res.end(JSON.stringify(found));
        return;
      }
      if (req.method === "POST" && req.url === "/v1/refunds") {
        createRefund(res, body, req.headers["idempotency-key"] as string | undefined).catch((error) => {
          stripeError(res, 500, String(error));
        });
        return;
      }
      if (req.method !== "POST" || req.url !== "/v1/checkout/sessions") {
        stripeError(res, 404, "Unrecognized request URL");
        return;
      }
      const idempotencyKey = req.headers["idempotency-key"] as string | undefined;
      const fields = new URLSearchParams(body);
      fake.requests.push({ fields, idempotencyKey, auth: req.headers.authorization });
      if (fake.failNext) {
        const message = fake.failNext;
        fake.failNext = null;
        stripeError(res, 400, message);
        return;
      }
      // Like Stripe: the same idempotency key answers the same session.
      const key = idempotencyKey ?? String(Math.random());
      if (!byKey.has(key)) {
        const id = `cs_test_${byKey.size + 1}`;
        const amount = fields.get("line_items[0][price_data][unit_amount]");
        const session: FakeStripeSession = {
          id,
          object: "checkout.session",
          url: `https://checkout.stripe.com/c/pay/${id}`,
          status: "open",
          payment_status: "unpaid",
          amount_total: amount === null ? null : Number(amount),
          currency: fields.get("line_items[0][price_data][currency]"),
          client_reference_id: fields.get("client_reference_id"),
          metadata: metadataOf(fields),
          payment_intent: null,
        };
        byKey.set(key, session);
        sessions.set(id, session);
      }
      res.end(JSON.stringify(byKey.get(key)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () => new Promise((resolve) => server.close(() => resolve()));
  return fake;
}
