/**
 * The built-in sandbox payment provider. It behaves like a real hosted checkout: the portal sends the
 * browser to its page (outside the portal, /payments/sandbox/checkout), Pay makes the provider POST an
 * HMAC-signed webhook to the app's webhook endpoint over HTTP, and only then returns the browser to the
 * success URL. The portal learns of the payment from the webhook alone, exactly as with Stripe.
 *
 * A checkout session is a signed token carried in the page's URL, so the provider keeps no state and
 * the same idempotency key always gives the same session.
 */
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { fromMinorUnits, toMinorUnits } from "~/features/money/minor-units";
import type { CheckoutRequest, CheckoutResult } from "~/features/orders/checkout-provider";
import {
  type CheckoutStatus,
  type PaymentProvider,
  PaymentProviderError,
  type RefundOutcome,
  type RefundRequest,
  type SavedCard,
  type SavedCardChargeResult,
  type VerifiedPaymentEvent,
  WebhookVerificationError,
} from "./provider";
import {
  SANDBOX_TEST_CARDS,
  type SandboxTestCard,
  type SandboxTestCardName,
  sandboxCardExpiry,
} from "./sandbox-cards";

export const SANDBOX_SIGNATURE_HEADER = "portico-sandbox-signature";
export const SANDBOX_CHECKOUT_PATH = "/payments/sandbox/checkout";
/** Signed webhooks older (or newer) than this are refused, as Stripe does, against replays. */
export const SANDBOX_TOLERANCE_SECONDS = 300;

const SessionSchema = z.object({
  id: z.string(),
  orderId: z.string(),
  /** Absent from the pages of checkouts made before sessions named their invoice (ADR 0503). */
  invoiceId: z.string().optional(),
  invoiceNumber: z.string(),
  description: z.string(),
  amount: z.number(),
  currency: z.string(),
  successUrl: z.string(),
  cancelUrl: z.string(),
  /** setup: the page saves a card and charges nothing (ADR 0531); absent: a payment. */
  mode: z.enum(["payment", "setup"]).optional(),
  /** The customer the card used is saved for (a payment that saves it, or a setup). */
  saveCardFor: z.string().optional(),
});
export type SandboxSession = z.infer<typeof SessionSchema>;

const EventSchema = z.object({
  id: z.string().min(1).max(200),
  type: z.string().min(1).max(100),
  data: z.object({
    session_id: z.string().nullish(),
    order_id: z.string().nullish(),
    /** The invoice the checkout pays (absent from events of checkouts made before it was sent). */
    invoice_id: z.string().nullish(),
    amount: z.number().nullish(),
    currency: z.string().nullish(),
    /** Refund events: Portico's refund id and the sandbox's own. */
    refund_id: z.string().nullish(),
    provider_refund_id: z.string().nullish(),
  }),
});
export type SandboxEvent = z.infer<typeof EventSchema>;

function hmac(secret: string, data: string): string {
  return createHmac("sha256", secret).update(data).digest("hex");
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The signature header for a webhook body: `t={unix seconds},v1={hex HMAC-SHA256 of "t.body"}`. */
export function signSandboxPayload(secret: string, body: string, timestamp = Math.floor(Date.now() / 1000)) {
  return `t=${timestamp},v1=${hmac(secret, `${timestamp}.${body}`)}`;
}

export function verifySandboxSignature(
  secret: string,
  body: string,
  header: string | null,
  now = Math.floor(Date.now() / 1000),
): void {
  if (!header) throw new WebhookVerificationError("missing signature");
  const parts = Object.fromEntries(
    header.split(",").map((p) => {
      const i = p.indexOf("=");
      return [p.slice(0, i).trim(), p.slice(i + 1).trim()];
    }),
  );
  const t = Number(parts.t);
  if (!Number.isInteger(t) || !parts.v1) throw new WebhookVerificationError("malformed signature");
  if (Math.abs(now - t) > SANDBOX_TOLERANCE_SECONDS) throw new WebhookVerificationError("signature too old");
  if (!safeEqual(parts.v1, hmac(secret, `${t}.${body}`))) throw new WebhookVerificationError("bad signature");
}

/** A sandbox checkout left unpaid this long has expired, as a Stripe Checkout Session does. */
export const SANDBOX_SESSION_TTL_MS = 24 * 60 * 60 * 1000;

/** What the sandbox remembers of its checkouts (the database in a running app, a Map in unit tests). */
export interface SandboxCheckoutStore {
  /** Keeps a new checkout; a known id is left as it is. */
  created(session: Pick<SandboxSession, "id" | "orderId" | "amount" | "currency">): Promise<void>;
  /** Notes the checkout paid (before its webhook is sent). */
  paid(id: string): Promise<void>;
  find(
    id: string,
  ): Promise<{ amount: number; currency: string; paidAt: Date | null; createdAt: Date } | null>;
  /** Keeps a refund of a checkout (a known id is left as it is); what was refunded of it, before. */
  refund(refund: { id: string; checkoutId: string; amount: number }): Promise<void>;
  /** What has been refunded of a checkout, refund `except` left out. */
  refunded(checkoutId: string, except?: string): Promise<number>;
  /** Keeps the card a checkout saved; a checkout saves one card (a second is left out). */
  saveCard(card: SandboxStoredCard): Promise<void>;
  /** The card saved by a checkout, or by its payment method id. */
  savedCard(by: { checkoutId: string } | { paymentMethodId: string }): Promise<SandboxStoredCard | null>;
}

export interface SandboxStoredCard {
  paymentMethodId: string;
  checkoutId: string;
  customerId: string;
  card: SandboxTestCardName;
  expMonth: number;
  expYear: number;
}

export function memorySandboxStore(now: () => Date = () => new Date()): SandboxCheckoutStore {
  const rows = new Map<string, { amount: number; currency: string; paidAt: Date | null; createdAt: Date }>();
  const refunds = new Map<string, { checkoutId: string; amount: number }>();
  const cards: SandboxStoredCard[] = [];
  return {
    async saveCard(card) {
      if (!cards.some((c) => c.checkoutId === card.checkoutId || c.paymentMethodId === card.paymentMethodId))
        cards.push(card);
    },
    async savedCard(by) {
      return (
        cards.find((c) =>
          "checkoutId" in by ? c.checkoutId === by.checkoutId : c.paymentMethodId === by.paymentMethodId,
        ) ?? null
      );
    },
    async refund(r) {
      if (!refunds.has(r.id)) refunds.set(r.id, { checkoutId: r.checkoutId, amount: r.amount });
    },
    async refunded(checkoutId, except) {
      let total = 0;
      for (const [id, r] of refunds) if (r.checkoutId === checkoutId && id !== except) total += r.amount;
      return total;
    },
    async created(s) {
      if (!rows.has(s.id))
        rows.set(s.id, { amount: s.amount, currency: s.currency, paidAt: null, createdAt: now() });
    },
    async paid(id) {
      const row = rows.get(id);
      if (row && !row.paidAt) row.paidAt = now();
    },
    async find(id) {
      return rows.get(id) ?? null;
    },
  };
}

export interface SandboxProvider extends PaymentProvider {
  readonly name: "sandbox";
  /** The session behind a checkout page's token, or null when the token is not one of ours. */
  readSession(token: string): SandboxSession | null;
  /**
   * Pay: sends the signed `checkout.completed` webhook and waits for the portal's answer. A session that
   * saves a card saves `card` first (the succeeding test card when none is named).
   */
  pay(session: SandboxSession, card?: SandboxTestCardName): Promise<void>;
  /** A setup session's Save: keeps the chosen test card for the session's customer. */
  saveCard(session: SandboxSession, card: SandboxTestCardName): Promise<void>;
}

/** An id of the sandbox's own, from what makes it: the same seed, the same id. */
function sandboxId(prefix: string, seed: string): string {
  return `${prefix}_sbx_${createHash("sha256").update(seed).digest("hex").slice(0, 24)}`;
}

function savedCardOfStored(stored: SandboxStoredCard): SavedCard {
  const card: SandboxTestCard = SANDBOX_TEST_CARDS[stored.card];
  return {
    customerId: stored.customerId,
    paymentMethodId: stored.paymentMethodId,
    brand: card.brand,
    last4: card.last4,
    expMonth: stored.expMonth,
    expYear: stored.expYear,
  };
}

/** What the client reads when a sandbox test card is declined (Stripe's own wording for these codes). */
function declineMessage(card: SandboxTestCard): string {
  switch (card.decline?.declineCode) {
    case "insufficient_funds":
      return "Your card has insufficient funds.";
    case "stolen_card":
      return "Your card was declined.";
    case "authentication_required":
      return "Your card was declined. This transaction requires authentication.";
    default:
      return "Your card was declined.";
  }
}

/** The sandbox's refund id for an idempotency key: the same key, the same refund. */
export function sandboxRefundId(idempotencyKey: string): string {
  return `re_sbx_${createHash("sha256").update(idempotencyKey).digest("hex").slice(0, 24)}`;
}

export function createSandboxProvider(options: {
  secret: string;
  webhookUrl: string;
  fetch?: typeof fetch;
  /** Where the sandbox remembers its checkouts (retrieveCheckout reads it); in memory by default. */
  store?: SandboxCheckoutStore;
  now?: () => Date;
}): SandboxProvider {
  const { secret, webhookUrl } = options;
  const now = options.now ?? (() => new Date());
  const store = options.store ?? memorySandboxStore(now);
  const doFetch = options.fetch ?? fetch;
  const tokenSecret = `${secret}:sessions`;

  function sessionToken(session: SandboxSession): string {
    const body = Buffer.from(JSON.stringify(session)).toString("base64url");
    return `${body}.${hmac(tokenSecret, body)}`;
  }

  async function saveCard(session: SandboxSession, card: SandboxTestCardName): Promise<void> {
    if (!session.saveCardFor) throw new PaymentProviderError("this checkout saves no card");
    await store.saveCard({
      paymentMethodId: sandboxId("pm", `${session.id}:${card}`),
      checkoutId: session.id,
      customerId: session.saveCardFor,
      card,
      ...sandboxCardExpiry(card, now()),
    });
  }

  return {
    name: "sandbox",

    async createCheckout(request: CheckoutRequest): Promise<CheckoutResult> {
      const id = `cs_sbx_${createHash("sha256").update(request.idempotencyKey).digest("hex").slice(0, 24)}`;
      const session: SandboxSession = {
        id,
        orderId: request.orderId,
        invoiceId: request.invoiceId,
        invoiceNumber: request.invoiceNumber,
        description: request.description,
        amount: request.amount,
        currency: request.currency,
        successUrl: request.successUrl,
        cancelUrl: request.cancelUrl,
        ...(request.saveCardFor ? { saveCardFor: request.saveCardFor.customerId } : {}),
      };
      try {
        await store.created(session);
      } catch (error) {
        throw new PaymentProviderError(`the checkout could not be stored (${(error as Error).message})`);
      }
      return { url: `${SANDBOX_CHECKOUT_PATH}?session=${sessionToken(session)}`, reference: id };
    },

    async createCustomer({ clientId }) {
      return sandboxId("cus", `customer:${clientId}`);
    },

    async createCardSetup(request) {
      const session: SandboxSession = {
        id: sandboxId("cs_setup", request.idempotencyKey),
        orderId: "",
        invoiceNumber: "",
        description: request.description,
        amount: 0,
        currency: request.currency,
        successUrl: request.successUrl,
        cancelUrl: request.cancelUrl,
        mode: "setup",
        saveCardFor: request.customerId,
      };
      return { url: `${SANDBOX_CHECKOUT_PATH}?session=${sessionToken(session)}`, reference: session.id };
    },

    async savedCardOf(reference) {
      let stored: SandboxStoredCard | null;
      try {
        stored = await store.savedCard({ checkoutId: reference });
      } catch (error) {
        throw new PaymentProviderError(`the card could not be read (${(error as Error).message})`);
      }
      return stored ? savedCardOfStored(stored) : null;
    },

    async chargeSavedCard(request): Promise<SavedCardChargeResult> {
      let stored: SandboxStoredCard | null;
      try {
        stored = await store.savedCard({ paymentMethodId: request.paymentMethodId });
      } catch (error) {
        throw new PaymentProviderError(`the card could not be read (${(error as Error).message})`);
      }
      if (!stored || stored.customerId !== request.customerId) {
        throw new PaymentProviderError(`No such payment method: '${request.paymentMethodId}'`);
      }
      // The same key, the same payment (as a PaymentIntent made with an idempotency key).
      const paymentReference = sandboxId("pi", request.idempotencyKey);
      const card: SandboxTestCard = SANDBOX_TEST_CARDS[stored.card];
      const today = now();
      const expired =
        today.getUTCFullYear() * 12 + today.getUTCMonth() + 1 > stored.expYear * 12 + stored.expMonth;
      if (expired) {
        return {
          status: "declined",
          paymentReference,
          decline: { code: "expired_card", declineCode: "expired_card" },
          message: "Your card has expired.",
        };
      }
      if (card.decline) {
        return { status: "declined", paymentReference, decline: card.decline, message: declineMessage(card) };
      }
      try {
        await store.created({
          id: paymentReference,
          orderId: request.orderId,
          amount: request.amount,
          currency: request.currency,
        });
        await store.paid(paymentReference);
      } catch (error) {
        throw new PaymentProviderError(`the payment could not be stored (${(error as Error).message})`);
      }
      return { status: "succeeded", paymentReference };
    },

    async refund(request: RefundRequest): Promise<RefundOutcome> {
      const id = sandboxRefundId(request.idempotencyKey);
      let checkout: Awaited<ReturnType<SandboxCheckoutStore["find"]>>;
      let before: number;
      try {
        checkout = await store.find(request.paymentReference);
        before = await store.refunded(request.paymentReference, id);
      } catch (error) {
        throw new PaymentProviderError(`the payment could not be read (${(error as Error).message})`);
      }
      // Refused as Stripe refuses them: an unknown or unpaid payment, another currency, too much.
      if (!checkout?.paidAt) throw new PaymentProviderError(`no paid checkout ${request.paymentReference}`);
      if (checkout.currency.toUpperCase() !== request.currency.toUpperCase())
        throw new PaymentProviderError(`the payment was in ${checkout.currency}, not ${request.currency}`);
      const currency = request.currency;
      // In minor units: the float difference of two amounts may not be an amount (94.4 − 30.1).
      const leftMinor = toMinorUnits(checkout.amount, currency) - toMinorUnits(before, currency);
      if (toMinorUnits(request.amount, currency) > leftMinor) {
        throw new PaymentProviderError(
          `the refund of ${request.amount} ${currency} is more than the ${fromMinorUnits(leftMinor, currency)} ${currency} left of the payment`,
        );
      }
      await store.refund({ id, checkoutId: request.paymentReference, amount: request.amount });
      // Like a real provider, the refund is done before its webhook is sent, and the answer does not
      // wait on the portal's: a lost webhook changes nothing (the portal records the answer itself).
      const event: SandboxEvent = {
        id: `evt_sbx_${createHash("sha256").update(`${id}:succeeded`).digest("hex").slice(0, 24)}`,
        type: "refund.succeeded",
        data: {
          session_id: request.paymentReference,
          order_id: request.orderId,
          amount: request.amount,
          currency,
          refund_id: request.refundId,
          provider_refund_id: id,
        },
      };
      const body = JSON.stringify(event);
      try {
        await doFetch(webhookUrl, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            [SANDBOX_SIGNATURE_HEADER]: signSandboxPayload(secret, body),
          },
          body,
          signal: AbortSignal.timeout(10_000),
        });
      } catch {
        // Not delivered: the refund stands; the portal records it from this answer.
      }
      return { status: "succeeded", providerRefundId: id };
    },

    /** The sandbox's checkouts end on their own (retrieveCheckout); a late payment needs attention. */
    async expireCheckout(): Promise<void> {},

    async retrieveCheckout(reference: string): Promise<CheckoutStatus> {
      let row: Awaited<ReturnType<SandboxCheckoutStore["find"]>>;
      try {
        row = await store.find(reference);
      } catch (error) {
        throw new PaymentProviderError(`the checkout could not be read (${(error as Error).message})`);
      }
      if (!row) return { status: "unknown", amount: null, currency: null };
      const base = { amount: row.amount, currency: row.currency };
      if (row.paidAt) return { status: "paid", ...base, paymentReference: reference };
      const expired = now().getTime() - row.createdAt.getTime() > SANDBOX_SESSION_TTL_MS;
      return { status: expired ? "expired" : "open", ...base };
    },

    readSession(token) {
      const [body, signature] = token.split(".");
      if (!body || !signature || !safeEqual(signature, hmac(tokenSecret, body))) return null;
      try {
        const parsed = SessionSchema.safeParse(JSON.parse(Buffer.from(body, "base64url").toString("utf8")));
        return parsed.success ? parsed.data : null;
      } catch {
        return null;
      }
    },

    saveCard,

    async pay(session, card = "succeeds") {
      if (session.mode === "setup") throw new PaymentProviderError("a card setup charges nothing");
      if (session.saveCardFor) await saveCard(session, card);
      // One completed event per session: paying twice sends the same event id, which the portal
      // recognises as a repeat.
      const event: SandboxEvent = {
        id: `evt_sbx_${createHash("sha256").update(`${session.id}:completed`).digest("hex").slice(0, 24)}`,
        type: "checkout.completed",
        data: {
          session_id: session.id,
          order_id: session.orderId,
          ...(session.invoiceId ? { invoice_id: session.invoiceId } : {}),
          amount: session.amount,
          currency: session.currency,
        },
      };
      const body = JSON.stringify(event);
      // The sandbox knows it was paid before the portal hears of it, as a real provider does: a lost
      // webhook is found again by asking (retrieveCheckout).
      await store.created(session);
      await store.paid(session.id);
      let response: Response;
      try {
        response = await doFetch(webhookUrl, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            [SANDBOX_SIGNATURE_HEADER]: signSandboxPayload(secret, body),
          },
          body,
          signal: AbortSignal.timeout(10_000),
        });
      } catch (error) {
        throw new PaymentProviderError(`the webhook could not be delivered (${(error as Error).message})`);
      }
      if (!response.ok) throw new PaymentProviderError(`the webhook was answered ${response.status}`);
    },

    verifyWebhook(rawBody, headers): VerifiedPaymentEvent {
      verifySandboxSignature(secret, rawBody, headers.get(SANDBOX_SIGNATURE_HEADER));
      let parsed: SandboxEvent;
      try {
        parsed = EventSchema.parse(JSON.parse(rawBody));
      } catch {
        throw new WebhookVerificationError("not a sandbox event");
      }
      if (parsed.type === "refund.succeeded" || parsed.type === "refund.failed") {
        const d = parsed.data;
        if (!d.provider_refund_id || d.amount == null || !d.currency)
          throw new WebhookVerificationError("not a sandbox refund event");
        return {
          provider: "sandbox",
          eventId: parsed.id,
          type: parsed.type,
          kind: "refund",
          orderId: d.order_id ?? null,
          amount: null,
          currency: null,
          reference: d.session_id ?? null,
          refunds: [
            {
              status: parsed.type === "refund.succeeded" ? "succeeded" : "failed",
              providerRefundId: d.provider_refund_id,
              refundId: d.refund_id ?? null,
              paymentReference: d.session_id ?? null,
              amount: d.amount,
              currency: d.currency.toUpperCase(),
            },
          ],
          payload: parsed,
        };
      }
      const kind =
        parsed.type === "checkout.completed"
          ? "paid"
          : parsed.type === "checkout.expired"
            ? "expired"
            : "other";
      return {
        provider: "sandbox",
        eventId: parsed.id,
        type: parsed.type,
        kind,
        orderId: parsed.data.order_id ?? null,
        invoiceId: parsed.data.invoice_id ?? null,
        amount: parsed.data.amount ?? null,
        currency: parsed.data.currency?.toUpperCase() ?? null,
        reference: parsed.data.session_id ?? null,
        payload: parsed,
      };
    },
  };
}
