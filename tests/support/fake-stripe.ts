/**
 * A fake Stripe API on 127.0.0.1 for the Stripe provider's tests (the SDK's host, port and protocol
 * settings point at it): Checkout Session create (the same idempotency key answers the same session,
 * like Stripe) and retrieve (GET /v1/checkout/sessions/{id}); a test pays or expires a session with
 * `pay(id)` and `expire(id)`, as a customer or time would at Stripe, without any webhook. Refunds
 * (POST /v1/refunds, idempotent by key like Stripe's): answered with `refundStatus`, refused past what
 * the payment holds; `beforeRefundAnswer` runs before the answer (a webhook arriving first).
 * Saved cards (ADR 0531): Customers (idempotent by key), sessions in setup mode or saving the card of a
 * payment (`customer`, `setup_future_usage`), `pay(id, paymentMethod)` with one of Stripe's test payment
 * methods (FAKE_STRIPE_CARDS), sessions retrieved with their intents and card expanded, and off-session
 * PaymentIntents that succeed or fail with the card's `card_error` (402) as Stripe's do.
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
  mode: "payment" | "setup";
  customer: string | null;
  /** setup mode: the SetupIntent completing the session made. */
  setup_intent: string | null;
  /** The payment method the customer used (the fake's own field, for expansion). */
  used_payment_method: string | null;
  /** The session saves the card for later (payment_intent_data[setup_future_usage]). */
  saves_card: boolean;
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

/** Stripe's test payment methods the fake knows: the card, and how a charge of it ends. */
export const FAKE_STRIPE_CARDS: Record<
  string,
  { brand: string; last4: string; exp_month: number; exp_year: number; error?: Record<string, string> }
> = {
  pm_card_visa: { brand: "visa", last4: "4242", exp_month: 12, exp_year: 2034 },
  pm_card_chargeDeclinedInsufficientFunds: {
    brand: "visa",
    last4: "9995",
    exp_month: 12,
    exp_year: 2034,
    error: {
      code: "card_declined",
      decline_code: "insufficient_funds",
      message: "Your card has insufficient funds.",
    },
  },
  pm_card_chargeDeclinedStolenCard: {
    brand: "visa",
    last4: "9979",
    exp_month: 12,
    exp_year: 2034,
    error: { code: "card_declined", decline_code: "stolen_card", message: "Your card was declined." },
  },
  pm_card_authenticationRequired: {
    brand: "visa",
    last4: "3184",
    exp_month: 12,
    exp_year: 2034,
    error: {
      code: "authentication_required",
      decline_code: "authentication_required",
      message: "Your card was declined. This transaction requires authentication.",
    },
  },
  pm_card_chargeDeclinedDoNotTryAgain: {
    brand: "mastercard",
    last4: "0069",
    exp_month: 12,
    exp_year: 2034,
    error: {
      code: "card_declined",
      decline_code: "generic_decline",
      advice_code: "do_not_try_again",
      message: "Your card was declined.",
    },
  },
};

export interface FakePaymentIntent {
  id: string;
  object: "payment_intent";
  status: "succeeded" | "requires_payment_method";
  amount: number;
  currency: string;
  customer: string | null;
  payment_method: string | null;
  metadata: Record<string, string>;
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
  /** Customers made (POST /v1/customers), by id; and every off-session PaymentIntent, by id. */
  customers: Map<
    string,
    { id: string; email: string | null; name: string | null; metadata: Record<string, string> }
  >;
  paymentIntents: Map<string, FakePaymentIntent>;
  /** Every PaymentIntent create request: its form fields and idempotency key. */
  paymentIntentRequests: Array<{ fields: URLSearchParams; idempotencyKey: string | undefined }>;
  /**
   * The customer completes the session (no webhook is sent): pays it, or in setup mode saves the card;
   * with `paymentMethod` (one of FAKE_STRIPE_CARDS, pm_card_visa by default).
   */
  pay(id: string, paymentMethod?: string): void;
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
    customers: new Map(),
    paymentIntents: new Map(),
    paymentIntentRequests: [],
    pay(id, paymentMethod = "pm_card_visa") {
      const s = sessions.get(id);
      if (!s) throw new Error(`no session ${id}`);
      if (!FAKE_STRIPE_CARDS[paymentMethod]) throw new Error(`no test card ${paymentMethod}`);
      if (s.mode === "setup") {
        Object.assign(s, {
          status: "complete",
          setup_intent: `seti_${id}`,
          used_payment_method: paymentMethod,
        });
        return;
      }
      Object.assign(s, {
        status: "complete",
        payment_status: "paid",
        payment_intent: `pi_${id}`,
        used_payment_method: paymentMethod,
      });
    },
    expire(id) {
      const s = sessions.get(id);
      if (!s) throw new Error(`no session ${id}`);
      s.status = "expired";
    },
    close: async () => {},
  };
  const refundsByKey = new Map<string, FakeStripeRefund>();
  const customersByKey = new Map<
    string,
    {
      id: string;
      object: string;
      email: string | null;
      name: string | null;
      metadata: Record<string, string>;
    }
  >();
  const intentAnswersByKey = new Map<string, { status: number; body: string }>();

  /** A test card as Stripe's PaymentMethod object, attached to `customer`. */
  function paymentMethodObject(id: string, customer: string | null) {
    const card = FAKE_STRIPE_CARDS[id]!;
    const { error: _error, ...details } = card;
    return { id, object: "payment_method", type: "card", customer, card: details };
  }

  /** The session with the intents and payment method asked for expanded, as Stripe's `expand[]` does. */
  function expanded(session: FakeStripeSession, expand: string[]) {
    const method = session.used_payment_method;
    // Only a card saved for later belongs to the customer (a plain payment's card is not attached).
    const attached = session.mode === "setup" || session.saves_card;
    const methodField = (path: string) =>
      method && expand.includes(path)
        ? paymentMethodObject(method, attached ? session.customer : null)
        : method;
    return {
      ...session,
      payment_intent:
        session.payment_intent && expand.some((e) => e.startsWith("payment_intent"))
          ? {
              id: session.payment_intent,
              object: "payment_intent",
              status: "succeeded",
              payment_method: methodField("payment_intent.payment_method"),
            }
          : session.payment_intent,
      setup_intent:
        session.setup_intent && expand.some((e) => e.startsWith("setup_intent"))
          ? {
              id: session.setup_intent,
              object: "setup_intent",
              status: "succeeded",
              payment_method: methodField("setup_intent.payment_method"),
            }
          : session.setup_intent,
    };
  }

  /** An off-session, confirmed PaymentIntent: succeeded, or Stripe's 402 card_error with the intent. */
  function createPaymentIntent(fields: URLSearchParams): { status: number; body: string } {
    const method = fields.get("payment_method") ?? "";
    const card = FAKE_STRIPE_CARDS[method];
    const customer = fields.get("customer");
    const savedFor = [...sessions.values()].some(
      (s) =>
        s.used_payment_method === method && s.customer === customer && (s.mode === "setup" || s.saves_card),
    );
    if (!card || !customer || !savedFor) {
      return {
        status: 400,
        body: JSON.stringify({
          error: {
            type: "invalid_request_error",
            code: "resource_missing",
            message: `No such PaymentMethod: '${method}' for customer '${customer}'`,
          },
        }),
      };
    }
    const intent: FakePaymentIntent = {
      id: `pi_test_${fake.paymentIntents.size + 1}`,
      object: "payment_intent",
      status: card.error ? "requires_payment_method" : "succeeded",
      amount: Number(fields.get("amount")),
      currency: fields.get("currency") ?? "usd",
      customer,
      payment_method: method,
      metadata: metadataOf(fields),
    };
    fake.paymentIntents.set(intent.id, intent);
    if (!card.error) return { status: 200, body: JSON.stringify(intent) };
    return {
      status: 402,
      body: JSON.stringify({
        error: {
          type: "card_error",
          ...card.error,
          payment_intent: { ...intent, last_payment_error: card.error },
        },
      }),
    };
  }
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
    const offSession = fake.paymentIntents.get(intent);
    const session =
      offSession?.status === "succeeded"
        ? { payment_status: "paid", amount_total: offSession.amount, currency: offSession.currency }
        : [...sessions.values()].find((s) => s.payment_intent === intent);
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
        // The SDK sends `expand[0]=…&expand[1]=…`.
        const query = new URL(req.url ?? "/", "http://x").searchParams;
        const expand = [...query].filter(([k]) => /^expand\[\d*\]$/.test(k)).map(([, v]) => v);
        res.end(JSON.stringify(expanded(found, expand)));
        return;
      }
      if (req.method === "POST" && req.url === "/v1/customers") {
        const key = req.headers["idempotency-key"] as string | undefined;
        const fields = new URLSearchParams(body);
        const known = key ? customersByKey.get(key) : undefined;
        const customer = known ?? {
          id: `cus_test_${fake.customers.size + 1}`,
          object: "customer",
          email: fields.get("email"),
          name: fields.get("name"),
          metadata: metadataOf(fields),
        };
        fake.customers.set(customer.id, customer);
        if (key) customersByKey.set(key, customer);
        res.end(JSON.stringify(customer));
        return;
      }
      if (req.method === "POST" && req.url === "/v1/payment_intents") {
        const key = req.headers["idempotency-key"] as string | undefined;
        const fields = new URLSearchParams(body);
        fake.paymentIntentRequests.push({ fields, idempotencyKey: key });
        const replay = key ? intentAnswersByKey.get(key) : undefined;
        const answer = replay ?? createPaymentIntent(fields);
        if (key) intentAnswersByKey.set(key, answer);
        res.statusCode = answer.status;
        res.end(answer.body);
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
      // Like Stripe: a customer or an email, not both; setup mode needs a currency.
      if (fields.get("customer") && fields.get("customer_email")) {
        stripeError(res, 400, "You may only specify one of these parameters: customer, customer_email.");
        return;
      }
      if (fields.get("mode") === "setup" && !fields.get("currency")) {
        stripeError(res, 400, "Missing required param: currency.", "parameter_missing");
        return;
      }
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
          mode: fields.get("mode") === "setup" ? "setup" : "payment",
          customer: fields.get("customer"),
          setup_intent: null,
          used_payment_method: null,
          saves_card: fields.get("payment_intent_data[setup_future_usage]") === "off_session",
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
