/**
 * The catalogue's editor of a service's intake questions (the brief, ADR 0512), as rows of fields that
 * work without JavaScript: the saved questions, then blank rows to add new ones (a blank row is ignored
 * when saved), and a "Remove" box on each saved row. The rows' fields are named by `questionField`
 * (features/catalogue/intake-questions.ts), whose parser reads them.
 */
import {
  type IntakeQuestion,
  MAX_EDITOR_ROWS,
  MAX_INTAKE_QUESTIONS,
  questionField,
} from "~/features/catalogue/intake-questions";

/** Blank rows offered after the saved questions (while the service has room for more). */
export const BLANK_ROWS = 2;

/** The box that drops a row when the form is saved. */
export const removeField = (i: number) => `question.${i}.remove`;

/** One row of the editor as it is shown: a saved question, a blank row, or what was just sent. */
export interface EditorRow {
  index: number;
  /** A blank row for a new question (not one of the saved questions). */
  isNew: boolean;
  label: string;
  key: string;
  kind: string;
  required: boolean;
  maxLength: string;
  hint: string;
  remove: boolean;
}

const ROW_FIELD = /^question\.(\d+)\./;

/**
 * The rows to show: the saved questions and blank rows, or, after a refused save, the rows as they were
 * sent (`values`, the form's question fields), so nothing typed is lost and each error finds its field.
 */
export function editorRows(
  questions: readonly IntakeQuestion[],
  values: Readonly<Record<string, string>> | null = null,
): EditorRow[] {
  if (values) {
    let count = 0;
    for (const name of Object.keys(values)) {
      const match = ROW_FIELD.exec(name);
      if (match) count = Math.max(count, Number(match[1]) + 1);
    }
    return Array.from({ length: Math.min(count, MAX_EDITOR_ROWS) }, (_, i) => ({
      index: i,
      isNew: i >= questions.length,
      label: values[questionField(i, "label")] ?? "",
      key: values[questionField(i, "key")] ?? "",
      kind: values[questionField(i, "kind")] ?? "text",
      required: questionField(i, "required") in values,
      maxLength: values[questionField(i, "maxLength")] ?? "",
      hint: values[questionField(i, "hint")] ?? "",
      remove: removeField(i) in values,
    }));
  }
  const saved: EditorRow[] = questions.map((q, i) => ({
    index: i,
    isNew: false,
    label: q.label,
    key: q.key,
    kind: q.kind,
    required: q.required,
    maxLength: String(q.maxLength),
    hint: q.hint ?? "",
    remove: false,
  }));
  const blanks = Math.max(0, Math.min(BLANK_ROWS, MAX_INTAKE_QUESTIONS - questions.length));
  for (let b = 0; b < blanks; b++) {
    const i = questions.length + b;
    saved.push({
      index: i,
      isNew: true,
      label: "",
      key: "",
      kind: "text",
      required: false,
      maxLength: "",
      hint: "",
      remove: false,
    });
  }
  return saved;
}

/** The form's question fields as sent (text only), to show them again after a refused save. */
export function questionValues(form: FormData): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of form) {
    if (typeof value === "string" && ROW_FIELD.test(name)) out[name] = value;
  }
  return out;
}

/** The form without the rows whose "Remove" box is ticked, for `parseIntakeQuestionsForm`. */
export function withoutRemovedRows(form: FormData): URLSearchParams {
  const removed = new Set<string>();
  for (const name of form.keys()) {
    const match = /^question\.(\d+)\.remove$/.exec(name);
    if (match) removed.add(match[1]!);
  }
  const kept = new URLSearchParams();
  for (const [name, value] of form) {
    if (typeof value !== "string") continue;
    const row = ROW_FIELD.exec(name)?.[1];
    if (row !== undefined && removed.has(row)) continue;
    kept.append(name, value);
  }
  return kept;
}
