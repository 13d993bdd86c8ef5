/**
 * The one way a form is checked and its errors travel (docs/decisions/0011-one-form-one-call.md).
 *
 * The server parses a submitted form with the form's zod schema through `parseForm`; a failure answers
 * 400 with `{ ok: false, error, fieldErrors }`: `fieldErrors` for the fields that show their own message,
 * `error` (the first message) for the form's alert. Forms that can check themselves in the browser use
 * `useFormErrors` with the same schema. Nothing here imports zod: these run in the browser before a
 * form's schema has arrived.
 */
export type FieldErrors = Partial<Record<string, string>>;

interface Issues {
  issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>;
}

/** The first message per field, as the forms show them. */
export function fieldErrors(error: Issues): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? "form");
    out[key] ??= issue.message;
  }
  return out;
}

/** Reads a submitted form into a plain object of strings (files and repeated keys ignored). */
export function formValues(form: FormData): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of form) if (typeof value === "string" && !(key in out)) out[key] = value;
  return out;
}

/** What a rejected form answers: the form's alert and each field's own message. */
export interface FormFailure {
  ok: false;
  error: string;
  fieldErrors: FieldErrors;
}

/** Any zod (or zod/mini) schema: only `safeParse` is used. */
export interface FormSchema<T> {
  safeParse(input: unknown): { success: true; data: T } | { success: false; error: Issues };
}

/** Checks a form's values against its schema: the data, or the failure to answer with (status 400). */
export function parseForm<T>(schema: FormSchema<T>, values: unknown): { ok: true; data: T } | FormFailure {
  const parsed = schema.safeParse(values);
  if (parsed.success) return { ok: true, data: parsed.data };
  return {
    ok: false,
    error: parsed.error.issues[0]?.message ?? "Please check the form.",
    fieldErrors: fieldErrors(parsed.error),
  };
}
