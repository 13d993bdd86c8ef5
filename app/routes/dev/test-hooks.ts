import { tmpdir } from "node:os";
import path from "node:path";
import { writeHeapSnapshot } from "node:v8";
import { desc, eq } from "drizzle-orm";
import { data } from "react-router";
import type { z } from "zod";
import { quoteRequests, user } from "~/db/schema";
import { runClientWatchForTest } from "~/features/domain-checks/watch.server";
import { markOverdueInvoices } from "~/features/invoices/overdue.server";
import { acquireLease } from "~/features/jobs/leases.server";
import { publishLiveEvent } from "~/features/live/live-events.server";
import { postMessage } from "~/features/orders/conversation.server";
import { afterSaleDeps } from "~/features/payments/deps.server";
import { PLAN_STATES_JOB, settlePlans } from "~/features/plans/plan-states.server";
import { chargeDueRenewals, RENEWAL_CHARGES_JOB } from "~/features/plans/renewal-charges.server";
import { issueDueRenewals, RENEWALS_JOB } from "~/features/plans/renewals.server";
import { saveDraft } from "~/features/quotes/quote-drafts.server";
import { sendQuote } from "~/features/quotes/quote-sending.server";
import { changeOrderStatus, makeOrders } from "~/features/testing/fixtures.server";
import { hooks } from "~/features/testing/test-hooks";
import type { Route } from "./+types/test-hooks";

/**
 * Not in the spec: hooks the browser tests use to make orders, payments and catalogue changes in the
 * server's own database (an embedded PGlite belongs to one process). Served only with TEST_HOOKS=true;
 * what each takes is in features/testing/test-hooks.ts.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  if (!context.runtime.config.testHooks) throw new Response("Not Found", { status: 404 });
  const hook = params.hook as keyof typeof hooks;
  const schema = hooks[hook];
  if (!schema) throw new Response("Not Found", { status: 404 });
  const parsed = schema.safeParse(await request.json().catch(() => ({})));
  if (!parsed.success) return data({ error: parsed.error.message }, { status: 400 });
  const db = context.runtime.database.db;
  const forWebhook = (name: string) => context.runtime.payments.forWebhook(name);
  const input = parsed.data as Record<string, unknown>;
  const userId = async () => {
    const [row] = await db
      .select({ id: user.id })
      .from(user)
      .where(eq(user.email, String(input.email)))
      .limit(1);
    if (!row) throw data({ error: "no such user" }, { status: 404 });
    return row.id;
  };
  switch (hook) {
    case "verify-user":
      await db
        .update(user)
        .set({ emailVerified: true })
        .where(eq(user.email, String(input.email)));
      return { ok: true };
    case "orders": {
      const o = parsed.data as z.infer<(typeof hooks)["orders"]>;
      return { orders: await makeOrders(db, await userId(), o) };
    }
    case "order-status": {
      const o = parsed.data as z.infer<(typeof hooks)["order-status"]>;
      return { ok: await changeOrderStatus(db, await userId(), o.orderId, o.status) };
    }
    case "overdue":
      return { marked: await markOverdueInvoices(db) };
    case "plan-jobs": {
      const o = parsed.data as z.infer<(typeof hooks)["plan-jobs"]>;
      const now = o.now ? new Date(o.now) : new Date();
      const { runtime } = context;
      const wakeOutbox = () => runtime.outbox.wake();
      const paymentDeps = {
        db,
        business: runtime.config.business,
        publicUrl: runtime.config.publicUrl,
        wakeOutbox,
        logger: context.logger,
        provider: forWebhook,
      };
      // A journey on its own days: the server's own plan jobs (on the real clock) stand aside for half
      // an hour, so they never act on the days in between.
      if (o.now) {
        for (const job of [RENEWALS_JOB, RENEWAL_CHARGES_JOB, PLAN_STATES_JOB]) {
          await acquireLease(db, job, "test-hooks", new Date(), 30 * 60_000);
        }
      }
      const rates = async () => (await runtime.currency.rates.get()).rates;
      const clientId = await userId();
      const issued = await issueDueRenewals({ db, config: runtime.config, rates }, now, undefined, clientId);
      const charged = await chargeDueRenewals(paymentDeps, now, undefined, clientId);
      const settled = await settlePlans(paymentDeps, now, undefined, clientId);
      wakeOutbox();
      return { issued: issued.length, charged, ...settled };
    }
    case "domain-watch": {
      const o = parsed.data as z.infer<(typeof hooks)["domain-watch"]>;
      return runClientWatchForTest(context, await userId(), o.now ? new Date(o.now) : null);
    }
    case "catalogue":
      return { id: await publishLiveEvent(db, { userId: null, kind: "catalogue", status: "changed" }) };
    case "order-message": {
      const o = parsed.data as z.infer<(typeof hooks)["order-message"]>;
      const author = { id: await userId(), role: "client" as const };
      const sent = await postMessage(afterSaleDeps(context), { author, orderId: o.orderId, body: o.body });
      return sent.ok ? sent : data(sent, { status: sent.status });
    }
    case "quote": {
      const o = parsed.data as z.infer<(typeof hooks)["quote"]>;
      const deps = { db, config: context.runtime.config, actor: { id: null, email: "test-hooks" } };
      const [request] = await db
        .select({ id: quoteRequests.id, name: quoteRequests.name })
        .from(quoteRequests)
        .where(eq(quoteRequests.email, o.email))
        .orderBy(desc(quoteRequests.createdAt))
        .limit(1);
      const draft = await saveDraft(deps, null, {
        requestId: request?.id ?? null,
        name: request?.name ?? o.name,
        email: o.email,
        lines: o.lines.map((l) => ({ kind: "free" as const, ...l })),
        depositPercent: o.depositPercent ?? null,
        validUntil: new Date(Date.now() + o.validInDays * 86_400_000).toISOString().slice(0, 10),
        terms: o.terms,
      });
      if (!draft.ok) return data(draft, { status: draft.status });
      const sent = await sendQuote(deps, draft.id);
      if (!sent.ok) return data(sent, { status: sent.status });
      context.runtime.outbox.wake();
      return { id: draft.id, message: sent.message };
    }
    case "memory": {
      const gc = (globalThis as { gc?: () => void }).gc;
      gc?.();
      const { heapUsed, rss } = process.memoryUsage();
      // The soak's leak hunt: a heap snapshot after the collection, in the system's temporary folder.
      const snapshot =
        typeof input.snapshot === "string"
          ? writeHeapSnapshot(path.join(tmpdir(), `${input.snapshot}.heapsnapshot`))
          : null;
      return { collected: Boolean(gc), heapUsed, rss, snapshot };
    }
  }
}

export function loader({ context }: Route.LoaderArgs) {
  if (!context.runtime.config.testHooks) throw new Response("Not Found", { status: 404 });
  return { hooks: Object.keys(hooks) };
}
