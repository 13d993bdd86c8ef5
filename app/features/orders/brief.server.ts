/**
 * Saving and reading an order's brief (ADR 0512). The client answers their own order's intake questions
 * while it is paid or in progress (again to correct them); the answers and the questions as asked are
 * kept in `order_briefs`, and in the same transaction the owner is told: a live event to every admin's
 * open page, a bell notification each, and an email to the business address.
 */
import { and, eq, exists, inArray, notExists, type SQL, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { clients, type IntakeQuestion, orderBriefs, orders, services } from "~/db/schema";
import { publishLiveEvent } from "~/features/live/live-events.server";
import { enqueueEmail, mailbox } from "~/features/mail/mail.server";
import { noticeEmail } from "~/features/mail/notice-email.server";
import { NOTIFICATIONS } from "~/features/notifications/messages";
import { type FieldErrors, parseForm } from "~/ui/form";
import {
  BRIEF_MESSAGES,
  BRIEF_MISSING,
  type BriefAnswers,
  type BriefState,
  briefLines,
  briefSchema,
  briefState,
  canAnswerBrief,
  WAITING_FOR_DETAILS,
} from "./brief";
import {
  type AfterSaleDeps,
  adminOrderPath,
  findOrderFor,
  notifyOwners,
  publishToOwners,
  type ScopedOrder,
  type Viewer,
} from "./order-access.server";
import { WORK_OWED_ORDER_STATUSES } from "./order-status";

/** An order's brief as either side's page shows it. */
export interface BriefView {
  state: BriefState;
  /** The badge while it is missing, in the viewer's side's words; null otherwise. */
  badge: string | null;
  /** The questions answered (as they were asked), or the ones to answer now. */
  questions: IntakeQuestion[];
  answers: BriefAnswers;
  answeredAt: Date | null;
  updatedAt: Date | null;
  /** Whether the client may send (or correct) the answers now. */
  canAnswer: boolean;
}

async function readBrief(db: Database, orderId: string) {
  const [row] = await db.select().from(orderBriefs).where(eq(orderBriefs.orderId, orderId)).limit(1);
  return row ?? null;
}

export function briefView(
  scoped: ScopedOrder,
  brief: { questions: IntakeQuestion[]; answers: BriefAnswers; answeredAt: Date; updatedAt: Date } | null,
  side: Viewer["role"],
  /** The answers the form starts with while none are given (an order made from a domain alert). */
  prefill?: BriefAnswers,
): BriefView {
  const questions = brief?.questions ?? scoped.intakeQuestions;
  const state = briefState({
    status: scoped.order.status,
    questionCount: questions.length,
    answered: Boolean(brief),
  });
  return {
    state,
    badge: state === "missing" ? (side === "admin" ? BRIEF_MISSING : WAITING_FOR_DETAILS) : null,
    questions,
    answers: brief?.answers ?? prefill ?? {},
    answeredAt: brief?.answeredAt ?? null,
    updatedAt: brief?.updatedAt ?? null,
    canAnswer: questions.length > 0 && canAnswerBrief(scoped.order.status),
  };
}

/** An order's brief for its client or an admin; null when the viewer may not see the order. */
export async function getOrderBrief(
  db: Database,
  viewer: Viewer,
  orderId: string,
): Promise<BriefView | null> {
  const scoped = await findOrderFor(db, viewer, orderId);
  if (!scoped) return null;
  return briefView(scoped, await readBrief(db, orderId), viewer.role);
}

/**
 * The SQL twin of "brief missing", for lists (the back office's orders, the portal's): paid or in
 * progress, no brief, and a service that asks questions. Use it in a query over `orders`.
 */
export const briefMissingSql: SQL<boolean> = sql<boolean>`(${and(
  inArray(orders.status, [...WORK_OWED_ORDER_STATUSES]),
  notExists(sql`(select 1 from ${orderBriefs} where ${orderBriefs.orderId} = ${orders.id})`),
  exists(
    sql`(select 1 from ${services} where ${services.id} = ${orders.serviceId} and jsonb_array_length(coalesce(${services.intakeQuestions}, '[]'::jsonb)) > 0)`,
  ),
)})`;

export type SaveBriefResult =
  | { ok: true; message: string }
  | { ok: false; status: 400; error: string; fieldErrors: FieldErrors }
  | { ok: false; status: 404 | 409; error: string };

/**
 * The client sends (or corrects) their order's brief. `answers` is keyed by question key (the form's
 * values). 404 for an order that is not theirs (or a malformed id); 409 when the service asks nothing or
 * the order is not paid yet, or is over; 400 with each answer's message when an answer is refused.
 */
export async function saveBrief(
  deps: AfterSaleDeps,
  input: { clientId: string; orderId: string; answers: Record<string, unknown> },
): Promise<SaveBriefResult> {
  const viewer: Viewer = { id: input.clientId, role: "client" };
  const result = await deps.db.transaction(async (tx): Promise<SaveBriefResult> => {
    const scoped = await findOrderFor(tx, viewer, input.orderId, true);
    if (!scoped) return { ok: false, status: 404, error: "Order not found." };
    const { order } = scoped;
    const before = await readBrief(tx, order.id);
    // A correction answers the questions the client was asked, whatever the catalogue asks now.
    const questions = before?.questions ?? scoped.intakeQuestions;
    if (!questions.length) return { ok: false, status: 409, error: BRIEF_MESSAGES.noQuestions };
    if (!canAnswerBrief(order.status)) {
      return {
        ok: false,
        status: 409,
        error: order.status === "pending" ? BRIEF_MESSAGES.notYet : BRIEF_MESSAGES.closed,
      };
    }
    const parsed = parseForm(briefSchema(questions), input.answers);
    if (!parsed.ok) return { ...parsed, status: 400 };
    const answers = parsed.data;
    await tx
      .insert(orderBriefs)
      .values({ orderId: order.id, questions, answers, answeredBy: input.clientId })
      .onConflictDoUpdate({
        target: orderBriefs.orderId,
        set: { answers, answeredBy: input.clientId, updatedAt: new Date() },
      });

    const [client] = await tx
      .select({ name: clients.name, email: clients.email })
      .from(clients)
      .where(eq(clients.id, order.clientId))
      .limit(1);
    const clientName = client?.name ?? "A client";
    const event = { kind: "brief", entityId: order.id, status: before ? "updated" : "answered" } as const;
    // The client's other tabs, and the owner's open pages.
    await publishLiveEvent(tx, { ...event, userId: order.clientId });
    await publishToOwners(tx, event);
    await notifyOwners(tx, {
      ...NOTIFICATIONS.briefAnswered(clientName, order.serviceName),
      href: adminOrderPath(order.id),
    });
    const { business, publicUrl } = deps.config;
    await enqueueEmail(tx, {
      kind: "order-brief",
      to: mailbox(business.email, business.name),
      ...(client ? { replyTo: { name: client.name, address: client.email } } : {}),
      ...noticeEmail({
        business,
        publicUrl,
        subject: `${before ? "Brief updated" : "Brief received"}: ${order.serviceName} (${clientName})`,
        greetingName: business.name,
        lines: [
          `${clientName}${client ? ` <${client.email}>` : ""} ${before ? "corrected" : "sent"} the details for their order of ${order.serviceName} (${order.packageName}${order.quantity > 1 ? ` × ${order.quantity}` : ""}):`,
          ...briefLines(questions, answers).map((l) => `${l.label}: ${l.answer || "—"}`),
        ],
        link: { path: adminOrderPath(order.id), label: "Open the order" },
      }),
    });
    return { ok: true, message: before ? "Your details are updated." : BRIEF_MESSAGES.saved };
  });
  if (result.ok) deps.wakeOutbox?.();
  return result;
}
