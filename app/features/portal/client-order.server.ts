/**
 * The client's order page (`/client/orders/{id}`, ADR 0512): what its loader shows and what its one
 * action does with the page's two forms (intent `brief`: saveBrief; intent `message`: postMessage with
 * files). Another client's order and a malformed id are null / 404, as everywhere.
 */
import type { Database } from "~/db/client.server";
import { getOrderBrief, saveBrief } from "~/features/orders/brief.server";
import { BUY_INCIDENT_PATH } from "~/features/orders/conversation";
import { listThread, postMessage, type ThreadMessage } from "~/features/orders/conversation.server";
import {
  messagePostOf,
  type PostRefusal,
  type UploadPost,
  withUploadPost,
} from "~/features/orders/message-post.server";
import { type AfterSaleDeps, clientOrderPath, type Viewer } from "~/features/orders/order-access.server";
import { getOrderPage, type OrderPage } from "~/features/orders/order-page.server";
import { type ActionFailure, type ActionResult, type FieldErrors, formValues } from "~/ui/form";
import type { MessageResult } from "./OrderConversation";

export interface BuyAgainLink {
  href: string;
  label: string;
}

export interface ClientOrderView extends OrderPage {
  messages: ThreadMessage[];
  /** Where the client buys the same help again once the follow-up is over, and what the link says. */
  buyAgain: BuyAgainLink | null;
}

/** The link to buy again after a follow-up period: another incident, or the same service. */
function buyAgainLink(path: string | null): BuyAgainLink | null {
  if (!path) return null;
  const incident = path === BUY_INCIDENT_PATH || path.endsWith("package=incident");
  return { href: path, label: incident ? "Buy another incident" : "Order this service again" };
}

const clientOf = (clientId: string): Viewer => ({ id: clientId, role: "client" });

/** A post without one of the page's intents (a stale page, a hand-made request). */
export const UNKNOWN_FORM = "This form is not one of the page's. Please reload the page and try again.";

/**
 * Where the thank-you page after a payment sends the client to answer the order's questions: the
 * order's page while its brief is missing, or not asked yet because the payment is still being
 * confirmed (the page opens the form as soon as it is); null for an order that asks nothing, one
 * already answered, or not the client's.
 */
export async function briefPrompt(db: Database, clientId: string, orderId: string): Promise<string | null> {
  const brief = await getOrderBrief(db, clientOf(clientId), orderId);
  if (brief?.state !== "missing" && brief?.state !== "not-yet") return null;
  return clientOrderPath(orderId);
}

/** The page's data, or null (404). Reading the thread marks the owner's messages read. */
export async function loadClientOrder(
  deps: AfterSaleDeps,
  clientId: string,
  orderId: string,
): Promise<ClientOrderView | null> {
  const viewer = clientOf(clientId);
  const page = await getOrderPage(deps.db, viewer, orderId, deps.now?.());
  if (!page) return null;
  const thread = await listThread(deps, viewer, orderId);
  if (!thread) return null;
  const { conversation } = thread;
  return {
    ...page,
    conversation,
    messages: thread.messages,
    buyAgain: conversation.open ? null : buyAgainLink(conversation.buyAgainPath),
  };
}

/** What the page's forms answer (the one form answer, ADR 0011), told apart by `intent`. */
export type ClientOrderActionResult =
  | ActionResult<
      { intent: "brief"; message: string },
      { intent: "brief"; fieldErrors: FieldErrors; values: Record<string, string> }
    >
  | MessageResult
  | ActionFailure<{ intent: null }>;

/** The action's result, and the headers its response carries (a 429's Retry-After). */
export interface ClientOrderAnswer {
  result: ClientOrderActionResult;
  headers?: Record<string, string>;
}

/**
 * The page's action: reads the post (a post with files counted and streamed, ADR 0514) and calls the
 * feature its intent names.
 */
export function clientOrderAction(
  deps: AfterSaleDeps,
  clientId: string,
  orderId: string,
  request: Request,
): Promise<ClientOrderAnswer> {
  return withUploadPost(deps, clientOf(clientId), request, (read) =>
    answerPost(deps, clientId, orderId, read),
  );
}

async function answerPost(
  deps: AfterSaleDeps,
  clientId: string,
  orderId: string,
  read: UploadPost | PostRefusal,
): Promise<ClientOrderAnswer> {
  if (!read.ok) {
    const { retryAfterSeconds, body, ...refusal } = read;
    return {
      headers: retryAfterSeconds ? { "Retry-After": String(retryAfterSeconds) } : undefined,
      result: { ...refusal, intent: "message", body: body?.slice(0, 20_000) ?? "" },
    };
  }
  const { form } = read;
  const intent = form.get("intent");
  if (intent === "brief") {
    const values = formValues(form);
    const saved = await saveBrief(deps, { clientId, orderId, answers: values });
    if (saved.ok) return { result: { intent, ok: true, message: saved.message } };
    return { result: { fieldErrors: {}, ...saved, intent, values } };
  }
  if (intent === "message") {
    const post = messagePostOf(read);
    const body = post.body.slice(0, 20_000);
    const sent = await postMessage(deps, {
      author: clientOf(clientId),
      orderId,
      body: post.body,
      files: post.files,
      counted: read.counted,
    });
    if (sent.ok) {
      return { result: { intent, ok: true, message: sent.message, messageId: sent.messageId } };
    }
    const failure = {
      intent: "message" as const,
      ok: false as const,
      status: sent.status,
      error: sent.error,
      body,
    };
    if (sent.status === 429) {
      return {
        headers: { "Retry-After": String(sent.retryAfterSeconds) },
        result: { ...failure, fieldErrors: {} },
      };
    }
    if (sent.status === 409) {
      return {
        result: { ...failure, fieldErrors: {}, closed: { buyAgain: buyAgainLink(sent.buyAgainPath) } },
      };
    }
    return { result: { ...failure, fieldErrors: "fieldErrors" in sent ? sent.fieldErrors : {} } };
  }
  return { result: { intent: null, ok: false, status: 400, error: UNKNOWN_FORM } };
}
