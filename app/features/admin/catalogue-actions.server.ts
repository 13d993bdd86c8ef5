/**
 * The posts of a service's page in the catalogue: its two forms, told apart by `intent`. Without one (as
 * the page always sent it) the post is the service form (name, description, prices and features);
 * `intent=questions` is the intake questions' editor. Each answers with its HTTP status. The changes
 * are the catalogue's (catalogue-edit.server.ts, intake-questions.server.ts); this module reads the
 * forms and answers.
 */
import { type CatalogueEditDeps, updateCatalogueService } from "~/features/catalogue/catalogue-edit.server";
import { parseCatalogueForm } from "~/features/catalogue/catalogue-form";
import { parseIntakeQuestionsForm } from "~/features/catalogue/intake-questions";
import { updateIntakeQuestions } from "~/features/catalogue/intake-questions.server";
import type { FieldErrors } from "~/ui/form";
import { questionValues, withoutRemovedRows } from "./intake-editor";

export type ServiceFormResult =
  | { ok: true; intent: "service"; message: string; errors: Record<string, string>; values: null }
  | {
      ok: false;
      intent: "service";
      error: string;
      errors: Record<string, string>;
      values: Record<string, string> | null;
    };

export type QuestionsFormResult =
  | { ok: true; intent: "questions"; message: string }
  | {
      ok: false;
      intent: "questions";
      error: string;
      fieldErrors: FieldErrors;
      values: Record<string, string> | null;
    };

export type CataloguePostResult = ServiceFormResult | QuestionsFormResult;

export async function handleCataloguePost(
  deps: CatalogueEditDeps,
  service: { id: string; packageOrder: string[] },
  form: FormData,
): Promise<{ status: number; result: CataloguePostResult }> {
  if (form.get("intent") === "questions") {
    const parsed = parseIntakeQuestionsForm(withoutRemovedRows(form));
    if (!parsed.ok) {
      return { status: 400, result: { ...parsed, intent: "questions", values: questionValues(form) } };
    }
    const saved = await updateIntakeQuestions(deps, service.id, parsed.value);
    if (saved.ok) return { status: 200, result: { ...saved, intent: "questions" } };
    return {
      status: saved.status,
      result: { ok: false, intent: "questions", error: saved.error, fieldErrors: {}, values: null },
    };
  }

  const parsed = parseCatalogueForm(form, service.packageOrder);
  if (!parsed.ok) {
    const values = Object.fromEntries([...form].map(([k, v]) => [k, String(v)]));
    return {
      status: 400,
      result: {
        ok: false,
        intent: "service",
        error: "Please correct the highlighted fields.",
        errors: parsed.errors,
        values,
      },
    };
  }
  const result = await updateCatalogueService(deps, service.id, parsed.value);
  if (!result.ok) {
    return { status: result.status, result: { ...result, intent: "service", errors: {}, values: null } };
  }
  return { status: 200, result: { ...result, intent: "service", errors: {}, values: null } };
}
