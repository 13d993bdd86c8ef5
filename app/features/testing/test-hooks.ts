/**
 * What each of the browser tests' hooks takes (app/routes/dev/test-hooks.ts serves them, only with
 * TEST_HOOKS=true): validated like any input.
 */
import { z } from "zod";
import { orderStatuses } from "~/db/schema";

export const hooks = {
  "verify-user": z.object({ email: z.string().email() }),
  orders: z.object({
    email: z.string().email(),
    count: z.coerce.number().int().min(1).max(20_000).default(1),
    status: z.enum(orderStatuses).default("pending"),
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/)
      .default("USD"),
    rate: z.coerce.number().positive().default(1),
    amountUsd: z.coerce.number().positive().default(25),
    dueInDays: z.coerce.number().int().default(14),
    announce: z.coerce.boolean().default(false),
    placedAt: z.iso.datetime().optional(),
  }),
  "order-status": z.object({ email: z.string().email(), orderId: z.uuid(), status: z.enum(orderStatuses) }),
  overdue: z.object({}),
  // The care plans' jobs (issue 38: renewals issued, charged, states settled) for one client's plans,
  // run at once at `now` (the injected clock of a browser journey through a plan's periods).
  "plan-jobs": z.object({ email: z.string().email(), now: z.iso.datetime().optional() }),
  // The domain watch (issue 39) for one client's due domains, at `now` when given.
  "domain-watch": z.object({ email: z.string().email(), now: z.iso.datetime().optional() }),
  catalogue: z.object({}),
  // The load test's memory check: the heap after a full collection (when node runs with --expose-gc).
  memory: z.object({
    snapshot: z
      .string()
      .regex(/^[\w.-]{1,80}$/)
      .optional(),
  }),
  // A client writes on their order's conversation (the owner's page is watched for it live).
  "order-message": z.object({ email: z.string().email(), orderId: z.uuid(), body: z.string() }),
  // The owner writes a quote for the latest request from `email` (or for `email` itself) and sends it.
  quote: z.object({
    email: z.string().email(),
    name: z.string().default("Quote Client"),
    lines: z
      .array(z.object({ description: z.string(), quantity: z.coerce.number().int(), unitPrice: z.string() }))
      .min(1),
    depositPercent: z.coerce.number().int().optional(),
    validInDays: z.coerce.number().int().default(14),
    terms: z.string(),
  }),
};
