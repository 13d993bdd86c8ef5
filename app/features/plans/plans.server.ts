/**
 * Care plans in the database (ADR 0530): the active plans as the public pages show them, one plan by its
 * address, and the owner's changes (create, edit, deactivate), each with its audit row in the same
 * transaction.
 *
 * The public pages (/plans, the home page, four service pages) are kept in the page cache and read the
 * plans from an in-memory copy (`publicPlans`): a saved change empties both in this process through the
 * deps' `invalidatePublicPages` (the page cache's `invalidatePageCache`, which also calls
 * `clearPlansCache`), and the `catalogue` live event empties them in every other process, as a service's
 * edit does (catalogue-edit.server.ts).
 */
import { and, asc, eq, ne } from "drizzle-orm";
import type { Database, Tx } from "~/db/client.server";
import { type CarePlan, carePlans } from "~/db/schema";
import { recordAudit } from "~/features/audit/audit.server";
import type { CatalogueEditDeps } from "~/features/catalogue/catalogue-edit.server";
import { isUuid } from "~/features/ids/ids";
import { publishLiveEvent } from "~/features/live/live-events.server";
import type { ActionResult } from "~/ui/form";
import type { PlanEdit } from "./plan-form";
import { type PlanCard, planCard } from "./plans";

/** A plan's change: the audit's deps, and what empties this process's copies of the public pages. */
export type PlanChangeDeps = CatalogueEditDeps;

/** A change's answer: the plan's id and a message, or a refusal (a taken address names its field). */
export type PlanChangeResult = ActionResult<{ message: string; id: string }>;

/** Every active plan, in the owner's order (then by name). */
export async function listActivePlans(db: Database): Promise<CarePlan[]> {
  return db
    .select()
    .from(carePlans)
    .where(eq(carePlans.active, true))
    .orderBy(asc(carePlans.sortOrder), asc(carePlans.name));
}

/** Every plan, active or not: the back office's list. */
export async function listAllPlans(db: Database): Promise<CarePlan[]> {
  return db.select().from(carePlans).orderBy(asc(carePlans.sortOrder), asc(carePlans.name));
}

let plansGeneration = 0;
const kept = new WeakMap<Database, { generation: number; plans: Promise<PlanCard[]> }>();

/** The active plans as public pages show them, read once per database until a plan changes. */
export function publicPlans(db: Database): Promise<PlanCard[]> {
  const entry = kept.get(db);
  if (entry && entry.generation === plansGeneration) return entry.plans;
  const fresh = {
    generation: plansGeneration,
    plans: listActivePlans(db).then((rows) => rows.map(planCard)),
  };
  kept.set(db, fresh);
  // A failed read is not kept: the next page asks the database again.
  fresh.plans.catch(() => {
    if (kept.get(db) === fresh) kept.delete(db);
  });
  return fresh.plans;
}

/** Forgets every kept copy of the plans (called with the page cache's invalidation). */
export function clearPlansCache(): void {
  plansGeneration++;
}

/** One active plan by its address, or null. */
export async function publicPlanBySlug(db: Database, slug: string): Promise<PlanCard | null> {
  return (await publicPlans(db)).find((p) => p.slug === slug) ?? null;
}

/** One plan, active or not, by id (a malformed id is as unknown as a missing one). */
export async function getPlan(db: Database, id: string): Promise<CarePlan | null> {
  if (!isUuid(id)) return null;
  const [row] = await db.select().from(carePlans).where(eq(carePlans.id, id)).limit(1);
  return row ?? null;
}

/** What the audit keeps of a plan. */
function audited(plan: PlanEdit) {
  return {
    name: plan.name,
    slug: plan.slug,
    description: plan.description,
    included: plan.included,
    monthlyPriceUsd: plan.monthlyPriceUsd,
    yearlyPriceUsd: plan.yearlyPriceUsd,
    incidentAllowance: plan.incidentAllowance,
    watchedDomains: plan.watchedDomains,
    sortOrder: plan.sortOrder,
    active: plan.active,
  };
}

const SLUG_TAKEN = "Another plan already uses this address; choose another.";

function slugTaken(): PlanChangeResult {
  return { ok: false, status: 409, error: SLUG_TAKEN, fieldErrors: { slug: SLUG_TAKEN } };
}

/** A unique violation (two saves racing for one address), told by PostgreSQL's code on either driver. */
function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error; e && typeof e === "object"; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === "23505") return true;
  }
  return false;
}

/** Runs a change, answering 409 when the address was taken meanwhile; empties the page copies after. */
async function change(
  deps: PlanChangeDeps,
  run: (tx: Tx) => Promise<PlanChangeResult>,
): Promise<PlanChangeResult> {
  let result: PlanChangeResult;
  try {
    result = await deps.db.transaction(run);
  } catch (error) {
    if (isUniqueViolation(error)) return slugTaken();
    throw error;
  }
  // After the commit: a render that starts now reads the new plans.
  if (result.ok) deps.invalidatePublicPages();
  return result;
}

/** Adds a plan, with an audit row. */
export function createPlan(deps: PlanChangeDeps, edit: PlanEdit): Promise<PlanChangeResult> {
  return change(deps, async (tx) => {
    const [taken] = await tx
      .select({ id: carePlans.id })
      .from(carePlans)
      .where(eq(carePlans.slug, edit.slug))
      .limit(1);
    if (taken) return slugTaken();
    const [row] = await tx
      .insert(carePlans)
      .values({ ...audited(edit) })
      .returning({ id: carePlans.id });
    const id = row!.id;
    await publishLiveEvent(tx, { userId: null, kind: "catalogue", entityId: id, status: "plan-created" });
    await recordAudit(tx, deps.actor, {
      action: "plan.create",
      entity: "care_plan",
      entityId: id,
      after: audited(edit),
    });
    return {
      ok: true,
      id,
      message: edit.active
        ? `${edit.name} is saved; /plans shows it now.`
        : `${edit.name} is saved, inactive: the site does not show it.`,
    };
  });
}

/** Saves a plan's every field, with an audit row of before and after. */
export function updatePlan(deps: PlanChangeDeps, id: string, edit: PlanEdit): Promise<PlanChangeResult> {
  return change(deps, async (tx) => {
    const [before] = await tx.select().from(carePlans).where(eq(carePlans.id, id)).for("update");
    if (!before) return { ok: false, status: 404, error: "Plan not found." };
    const [taken] = await tx
      .select({ id: carePlans.id })
      .from(carePlans)
      .where(and(eq(carePlans.slug, edit.slug), ne(carePlans.id, id)))
      .limit(1);
    if (taken) return slugTaken();
    await tx.update(carePlans).set(audited(edit)).where(eq(carePlans.id, id));
    await publishLiveEvent(tx, { userId: null, kind: "catalogue", entityId: id, status: "plan-updated" });
    await recordAudit(tx, deps.actor, {
      action: "plan.update",
      entity: "care_plan",
      entityId: id,
      before: audited(before),
      after: audited(edit),
    });
    return { ok: true, id, message: `${edit.name} is saved; the site shows the change now.` };
  });
}

/** Takes a plan off the site (or puts it back), with an audit row. */
export function setPlanActive(deps: PlanChangeDeps, id: string, active: boolean): Promise<PlanChangeResult> {
  return change(deps, async (tx) => {
    const [before] = await tx.select().from(carePlans).where(eq(carePlans.id, id)).for("update");
    if (!before) return { ok: false, status: 404, error: "Plan not found." };
    if (before.active === active) {
      return {
        ok: true,
        id,
        message: active ? `${before.name} is already on the site.` : `${before.name} is already inactive.`,
      };
    }
    await tx.update(carePlans).set({ active }).where(eq(carePlans.id, id));
    await publishLiveEvent(tx, {
      userId: null,
      kind: "catalogue",
      entityId: id,
      status: active ? "plan-activated" : "plan-deactivated",
    });
    await recordAudit(tx, deps.actor, {
      action: active ? "plan.activate" : "plan.deactivate",
      entity: "care_plan",
      entityId: id,
      before: { name: before.name, active: before.active },
      after: { name: before.name, active },
    });
    return {
      ok: true,
      id,
      message: active
        ? `${before.name} is active: /plans shows it now.`
        : `${before.name} is inactive: the site no longer shows it.`,
    };
  });
}
