/**
 * The posts of a care plan's editor in the back office (ADR 0530): `intent=save` (the form; a new plan
 * when there is no plan yet), `intent=deactivate` and `intent=activate`. The changes are the plans
 * feature's (plans.server.ts); this module reads the form and answers with what the page shows.
 */
import { planFormSchema, planFormValues } from "~/features/plans/plan-form";
import {
  createPlan,
  type PlanChangeDeps,
  type PlanChangeResult,
  setPlanActive,
  updatePlan,
} from "~/features/plans/plans.server";
import { type ActionResult, type FieldErrors, fieldErrors } from "~/ui/form";

/** A refusal gives back each field's message and what was sent, so nothing typed is lost. */
export type PlanPostResult = ActionResult<
  { message: string; id: string; created: boolean },
  { fieldErrors: FieldErrors; values: Record<string, string> | null }
>;

function answer(
  result: PlanChangeResult,
  values: Record<string, string> | null,
  created = false,
): PlanPostResult {
  if (result.ok) return { ...result, created };
  return { ...result, fieldErrors: result.fieldErrors ?? {}, values };
}

export async function handlePlanPost(
  deps: PlanChangeDeps,
  planId: string | null,
  form: FormData,
): Promise<PlanPostResult> {
  const intent = form.get("intent");
  if (intent === "deactivate" || intent === "activate") {
    if (!planId)
      return { ok: false, status: 400, error: "Save the plan first.", fieldErrors: {}, values: null };
    return answer(await setPlanActive(deps, planId, intent === "activate"), null);
  }
  if (intent !== null && intent !== "save") {
    return { ok: false, status: 400, error: "Unknown action.", fieldErrors: {}, values: null };
  }
  const values = planFormValues(form);
  const parsed = planFormSchema.safeParse(values);
  if (!parsed.success) {
    const errors = fieldErrors(parsed.error);
    return {
      ok: false,
      status: 400,
      error: "Please correct the highlighted fields.",
      fieldErrors: errors,
      values,
    };
  }
  const result = planId ? await updatePlan(deps, planId, parsed.data) : await createPlan(deps, parsed.data);
  return answer(result, values, !planId);
}
