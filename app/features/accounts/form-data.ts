/**
 * Reading a submitted account form and its errors, without zod: the browser uses these before the
 * schemas (forms.ts, fetched on demand) have arrived, the server with them.
 */
export type FieldErrors = Partial<Record<string, string>>;

/** The first message per field, as the forms show them. */
export function fieldErrors(error: {
  issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>;
}): FieldErrors {
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
