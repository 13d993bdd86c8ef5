/**
 * The owner's order page (`/admin/orders/{id}`): one screen for the order's facts, its timeline, the
 * client's brief, the conversation and the status change (ADR 0512). The page's data, and its two
 * forms' posts by `intent`: `transition` (the default, so the status form's older posts keep working)
 * and `message` (a reply with files, read by orders/message-post.server.ts).
 */

import { z } from "zod";
import { orderStatuses } from "~/db/schema";
import { moneyFigures } from "~/features/invoices/money-totals";
import { orderMoneyTotals } from "~/features/invoices/money-totals.server";
import { getOrderBrief } from "~/features/orders/brief.server";
import { listThread, postMessage } from "~/features/orders/conversation.server";
import { alertOfOrder } from "~/features/orders/from-alert.server";
import {
  messagePostOf,
  type PostRefusal,
  type UploadPost,
  withUploadPost,
} from "~/features/orders/message-post.server";
import type { AfterSaleDeps, Viewer } from "~/features/orders/order-access.server";
import { getOrderDetail } from "~/features/orders/order-detail.server";
import { type OrderChangeDeps, transitionOrder } from "~/features/orders/order-lifecycle.server";
import { orderTimeline } from "~/features/orders/order-timeline";
import { statusNotesOf } from "~/features/orders/status-notes.server";
import { balanceOnCompletion } from "~/features/quotes/quote-balance.server";
import { type ActionResult, type FieldErrors, formValues, parseForm } from "~/ui/form";

/** The page's data: the order with its client, invoice and history, its timeline, brief and thread. */
export async function getAdminOrderPage(deps: AfterSaleDeps, admin: Viewer, orderId: string) {
  const detail = await getOrderDetail(deps.db, orderId);
  if (!detail) return null;
  const brief = await getOrderBrief(deps.db, admin, orderId);
  // Reading the thread marks the client's messages read (and tells their page).
  const thread = await listThread(deps, admin, orderId);
  if (!brief || !thread) return null;
  const [notes, money, alert] = await Promise.all([
    statusNotesOf(deps.db, orderId),
    orderMoneyTotals(deps.db, orderId),
    alertOfOrder(deps.db, detail.order, "admin"),
  ]);
  // What its invoices received, gave back and still ask: the client's order page's figures (ADR 0500).
  return {
    ...detail,
    timeline: orderTimeline(detail.order, notes),
    brief,
    thread,
    money: moneyFigures(money),
    fromAlert: alert ? { title: alert.title, domain: alert.domain, href: alert.href } : null,
  };
}

export type AdminOrderPage = NonNullable<Awaited<ReturnType<typeof getAdminOrderPage>>>;

/** The status form: the status to move to, and an optional note for the client's email. */
export const transitionForm = z.object({
  to: z.enum(orderStatuses, { message: "Choose a status" }),
  note: z
    .string()
    .trim()
    .max(2000, { message: "The note must be at most 2000 characters" })
    .transform((v) => v || null),
});

export const ORDER_INTENTS = ["transition", "message"] as const;
export type OrderIntent = (typeof ORDER_INTENTS)[number];

/**
 * What a post answers (the one form answer, ADR 0011): the page shows `message` or `error`, and each
 * field its own message.
 */
export type OrderPostResult = ActionResult<
  { intent: OrderIntent; message: string; messageId?: string },
  { intent: OrderIntent; fieldErrors?: FieldErrors }
>;

/**
 * Handles a post to the owner's order page. The caller has checked that `admin` is one (requireAdmin).
 * A post with files is counted and streamed (ADR 0514).
 */
export function handleOrderPost(input: {
  request: Request;
  deps: AfterSaleDeps;
  admin: { id: string; email: string };
  orderId: string;
}): Promise<OrderPostResult> {
  const admin: Viewer = { id: input.admin.id, role: "admin" };
  return withUploadPost(input.deps, admin, input.request, (post) => answerPost(input, admin, post));
}

async function answerPost(
  input: { deps: AfterSaleDeps; admin: { id: string; email: string }; orderId: string },
  admin: Viewer,
  post: UploadPost | PostRefusal,
): Promise<OrderPostResult> {
  const { deps: afterSale, orderId } = input;
  const change: OrderChangeDeps = {
    db: afterSale.db,
    config: afterSale.config,
    actor: input.admin,
    // A quote's order: completing it issues the quote's balance invoice (quotes sit above orders).
    afterCompleted: balanceOnCompletion(afterSale.config),
    wakeOutbox: afterSale.wakeOutbox,
    expireCheckout: afterSale.expireCheckout,
  };
  // A post refused before it was read whole (its size, a file, the rate) can only be a message.
  if (!post.ok) {
    const { retryAfterSeconds: _retry, body: _body, ...refusal } = post;
    return { ...refusal, intent: "message" };
  }
  const { form } = post;
  const raw = form.get("intent") ?? "transition";
  const intent = ORDER_INTENTS.find((i) => i === raw);
  if (!intent) return { ok: false, status: 400, intent: "transition", error: "Unknown action." };

  if (intent === "transition") {
    const parsed = parseForm(transitionForm, formValues(form));
    if (!parsed.ok) return { ...parsed, intent };
    const done = await transitionOrder(change, orderId, parsed.data.to, parsed.data.note);
    if (!done.ok) return { ok: false, status: done.status, intent, error: done.error };
    return { ...done, intent };
  }

  const message = messagePostOf(post);
  const sent = await postMessage(afterSale, {
    author: admin,
    orderId,
    body: message.body,
    files: message.files,
    counted: post.counted,
  });
  if (sent.ok) return { ...sent, intent };
  const fieldErrors = "fieldErrors" in sent ? sent.fieldErrors : undefined;
  return { ok: false, status: sent.status, intent, error: sent.error, fieldErrors };
}
