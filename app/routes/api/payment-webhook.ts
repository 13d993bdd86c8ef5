import { data } from "react-router";
import { webhookDeps } from "~/features/payments/deps.server";
import { WebhookVerificationError } from "~/features/payments/provider";
import { processPaymentEvent } from "~/features/payments/webhooks.server";
import { applyRefundUpdate } from "~/features/refunds/refund-webhooks.server";
import type { Route } from "./+types/payment-webhook";

const MAX_BODY_BYTES = 256 * 1024;

/**
 * The payment providers' webhook endpoint: /api/payments/{sandbox|stripe}/webhook. The signature is
 * verified on the raw body; a bad one is 400 and changes nothing; a repeat is 200 with no effect.
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "POST") return data({ error: "Method Not Allowed" }, { status: 405 });
  const provider = context.runtime.payments.forWebhook(params.provider);
  if (!provider) return data({ error: "Unknown payment provider" }, { status: 404 });
  const length = Number(request.headers.get("content-length") ?? 0);
  if (length > MAX_BODY_BYTES) return data({ error: "Payload too large" }, { status: 413 });
  const raw = await request.text();
  if (raw.length > MAX_BODY_BYTES) return data({ error: "Payload too large" }, { status: 413 });
  let event: ReturnType<typeof provider.verifyWebhook>;
  try {
    event = provider.verifyWebhook(raw, request.headers);
  } catch (error) {
    if (error instanceof WebhookVerificationError) {
      context.logger.warn({ provider: params.provider, reason: error.message }, "payment webhook refused");
      return data({ error: `Webhook verification failed: ${error.message}` }, { status: 400 });
    }
    throw error;
  }
  // A refund event updates its refund: the refunds feature's, given here (it sits above payments).
  const deps = { ...webhookDeps(context), refundUpdates: applyRefundUpdate };
  const result = await processPaymentEvent(deps, event);
  return data({
    received: true,
    duplicate: result.duplicate,
    outcome: result.duplicate ? null : result.outcome,
  });
}

export function loader() {
  return data({ error: "Method Not Allowed" }, { status: 405, headers: { Allow: "POST" } });
}
