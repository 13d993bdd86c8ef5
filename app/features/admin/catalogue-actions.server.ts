/**
 * The posts of a service's page in the catalogue: its two forms, told apart by `intent`. Without one (as
 * the page always sent it) the post is the service form (name, description, prices and features);
 * `intent=questions` is the intake questions' editor. Each answers the one form answer. The changes
 * are the catalogue's (catalogue-edit.server.ts, intake-questions.server.ts); this module reads the
 * forms and answers.
 */
import { type CatalogueEditDeps, updateCatalogueService } from "~/features/catalogue/catalogue-edit.server";
import { parseCatalogueForm } from "~/features/catalogue/catalogue-form";
import { parseIntakeQuestionsForm } from "~/features/catalogue/intake-questions";
import { updateIntakeQuestions } from "~/features/catalogue/intake-questions.server";
import type { ActionResult, FieldErrors } from "~/ui/form";
import { questionValues, withoutRemovedRows } from "./intake-editor";

/** What a form's refusal gives back: each field's message, and what was sent (to show it again). */
interface Refused<Intent> {
  intent: Intent;
  fieldErrors: FieldErrors;
  values: Record<string, string> | null;
}

/** The one form answer (ADR 0011) of each form, saying which one was posted. */
export type ServiceFormResult = ActionResult<{ intent: "service"; message: string }, Refused<"service">>;
export type QuestionsFormResult = ActionResult<
  { intent: "questions"; message: string },
  Refused<"questions">
>;
export type CataloguePostResult = ServiceFormResult | QuestionsFormResult;

export async function handleCataloguePost(
  deps: CatalogueEditDeps,
  service: { id: string; packageOrder: string[] },
  form: FormData,
): Promise<CataloguePostResult> {
  if (form.get("intent") === "questions") {
    const intent = "questions" as const;
    const parsed = parseIntakeQuestionsForm(withoutRemovedRows(form));
    if (!parsed.ok) return { ...parsed, intent, values: questionValues(form) };
    const saved = await updateIntakeQuestions(deps, service.id, parsed.value);
    return saved.ok ? { ...saved, intent } : { ...saved, intent, fieldErrors: {}, values: null };
  }

  const intent = "service" as const;
  const parsed = parseCatalogueForm(form, service.packageOrder);
  if (!parsed.ok) {
    const values = Object.fromEntries([...form].map(([k, v]) => [k, String(v)]));
    return {
      ok: false,
      status: 400,
      intent,
      error: "Please correct the highlighted fields.",
      fieldErrors: parsed.errors,
      values,
    };
  }
  const result = await updateCatalogueService(deps, service.id, parsed.value);
  return result.ok ? { ...result, intent } : { ...result, intent, fieldErrors: {}, values: null };
}
