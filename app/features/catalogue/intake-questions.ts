/**
 * A service's intake questions (the brief a client answers after paying, ADR 0512): what one question
 * may be, the list a service may carry, and the back office's editor form for them. Pure: shared by the
 * browser and the server. The answers' rules are the order's (features/orders/brief.ts).
 */
import { z } from "zod";
import { type IntakeQuestion, type IntakeQuestionKind, intakeQuestionKinds } from "~/db/schema";
import { hasNoNul, invalidCharacterMessage } from "~/features/security/text";
import { type FormFailure, fieldErrors, formFailure } from "~/ui/form";

export type { IntakeQuestion, IntakeQuestionKind };
export { intakeQuestionKinds };

/** At most this many questions per service: a brief, not a questionnaire. */
export const MAX_INTAKE_QUESTIONS = 12;
export const MAX_LABEL_CHARS = 200;
export const MAX_HINT_CHARS = 300;
export const MAX_KEY_CHARS = 40;

/** The longest answer the owner may allow, per kind of question. */
export const ANSWER_LIMITS: Readonly<Record<IntakeQuestionKind, { default: number; max: number }>> = {
  text: { default: 200, max: 500 },
  textarea: { default: 2000, max: 5000 },
  number: { default: 9, max: 15 },
};

export const KIND_LABELS: Readonly<Record<IntakeQuestionKind, string>> = {
  text: "Short text",
  textarea: "Long text",
  number: "Whole number",
};

/** Lower-case letters, digits and underscores, starting with a letter: a key is a form field's name. */
const KEY_PATTERN = /^[a-z][a-z0-9_]*$/;
/** Field names the answer forms use for themselves. */
const RESERVED_KEYS: ReadonlySet<string> = new Set(["intent", "order_id", "redirect_to"]);

const text = (label: string, max: number) =>
  z
    .string()
    .trim()
    .max(max, { message: `${label} must be at most ${max} characters` })
    .refine(hasNoNul, { message: invalidCharacterMessage(label) });

export const intakeQuestionSchema = z
  .object({
    key: z
      .string()
      .trim()
      .min(1, { message: "Enter a key" })
      .max(MAX_KEY_CHARS, { message: `A key must be at most ${MAX_KEY_CHARS} characters` })
      .regex(KEY_PATTERN, {
        message: "A key uses lower-case letters, digits and underscores, and starts with a letter",
      })
      .refine((k) => !RESERVED_KEYS.has(k), { message: "This key is reserved: choose another" }),
    label: text("The question", MAX_LABEL_CHARS).pipe(z.string().min(1, { message: "Enter the question" })),
    kind: z.enum(intakeQuestionKinds, { message: "Choose short text, long text or a whole number" }),
    required: z.boolean(),
    maxLength: z.number().int({ message: "Enter a whole number of characters" }),
    hint: text("The hint", MAX_HINT_CHARS)
      .optional()
      .transform((h) => (h ? h : undefined)),
  })
  .superRefine((q, ctx) => {
    const limit = ANSWER_LIMITS[q.kind];
    if (q.maxLength < 1 || q.maxLength > limit.max) {
      ctx.addIssue({
        code: "custom",
        path: ["maxLength"],
        message: `The longest answer must be between 1 and ${limit.max} characters for ${KIND_LABELS[q.kind].toLowerCase()}`,
      });
    }
  })
  .transform((q): IntakeQuestion => {
    const out: IntakeQuestion = {
      key: q.key,
      label: q.label,
      kind: q.kind,
      required: q.required,
      maxLength: q.maxLength,
    };
    if (q.hint) out.hint = q.hint;
    return out;
  });

export const intakeQuestionsSchema = z
  .array(intakeQuestionSchema)
  .max(MAX_INTAKE_QUESTIONS, { message: `Ask at most ${MAX_INTAKE_QUESTIONS} questions` })
  .superRefine((list, ctx) => {
    const seen = new Set<string>();
    list.forEach((q, i) => {
      if (seen.has(q.key)) {
        ctx.addIssue({ code: "custom", path: [i, "key"], message: `Two questions have the key "${q.key}"` });
      }
      seen.add(q.key);
    });
  });

/** The questions a service asks: none when it has none (or they were never set). */
export function intakeQuestionsOf(service: { intakeQuestions: IntakeQuestion[] | null }): IntakeQuestion[] {
  return service.intakeQuestions ?? [];
}

/** A key made from a question's label: "Number of mailboxes?" → "number_of_mailboxes". */
export function keyFromLabel(label: string): string {
  const key = label
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .slice(0, MAX_KEY_CHARS)
    .replace(/_+$/, "");
  if (!key) return "question";
  return /^[a-z]/.test(key) ? key : `q_${key}`.slice(0, MAX_KEY_CHARS);
}

// ---------------------------------------------------------------------------
// The back office's editor: one row of fields per question
// ---------------------------------------------------------------------------

/** The editor's field names for row `i` (0-based); a row whose label and key are empty is left out. */
export const questionField = (
  i: number,
  field: "key" | "label" | "kind" | "required" | "maxLength" | "hint",
) => `question.${i}.${field}`;

/** How many rows the editor may send (the questions, plus empty rows for adding). */
export const MAX_EDITOR_ROWS = MAX_INTAKE_QUESTIONS + 8;

export type IntakeQuestionsFormResult = { ok: true; value: IntakeQuestion[] } | FormFailure;

/**
 * Reads the editor's rows (`question.{i}.label`, `.key`, `.kind`, `.required` (a checkbox: present when
 * ticked), `.maxLength`, `.hint`) in row order. An empty key is made from the label; an empty longest
 * answer is the kind's default. Errors are keyed by the field's name (`question.2.label`), the first one
 * is the form's alert.
 */
export function parseIntakeQuestionsForm(form: FormData | URLSearchParams): IntakeQuestionsFormResult {
  const read = (name: string) => {
    const v = form.get(name);
    return typeof v === "string" ? v : "";
  };
  const rows: Array<{ row: number; raw: Record<string, unknown> }> = [];
  for (let i = 0; i < MAX_EDITOR_ROWS; i++) {
    const label = read(questionField(i, "label"));
    const key = read(questionField(i, "key")).trim();
    if (!label.trim() && !key) continue;
    const kindText = read(questionField(i, "kind")) || "text";
    const kind = (intakeQuestionKinds as readonly string[]).includes(kindText)
      ? (kindText as IntakeQuestionKind)
      : null;
    const maxText = read(questionField(i, "maxLength")).trim();
    rows.push({
      row: i,
      raw: {
        key: key || keyFromLabel(label),
        label,
        kind: kind ?? kindText,
        required: form.has(questionField(i, "required")),
        maxLength:
          maxText === ""
            ? ANSWER_LIMITS[kind ?? "text"].default
            : /^\d{1,6}$/.test(maxText)
              ? Number(maxText)
              : Number.NaN,
        hint: read(questionField(i, "hint")),
      },
    });
  }
  const parsed = intakeQuestionsSchema.safeParse(rows.map((r) => r.raw));
  if (parsed.success) return { ok: true, value: parsed.data };
  // Issues name the list's index: turn them into the row's field names.
  const issues = parsed.error.issues.map((issue) => {
    const [index, field] = issue.path;
    if (typeof index !== "number") return { path: ["form"], message: issue.message };
    const name = questionField(rows[index]?.row ?? index, isEditorField(field) ? field : "label");
    const notANumber = field === "maxLength" && Number.isNaN(rows[index]?.raw.maxLength);
    return { path: [name], message: notANumber ? "Enter a whole number of characters" : issue.message };
  });
  return formFailure(issues[0]?.message ?? "Please check the questions.", fieldErrors({ issues }));
}

type EditorField = Parameters<typeof questionField>[1];
const EDITOR_FIELDS: readonly PropertyKey[] = ["key", "label", "kind", "required", "maxLength", "hint"];
function isEditorField(field: PropertyKey | undefined): field is EditorField {
  return field !== undefined && EDITOR_FIELDS.includes(field);
}
