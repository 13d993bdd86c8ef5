/**
 * The one way a form is checked and an action answers (docs/decisions/0011-thin-routes-one-form-one-call.md).
 *
 * Every action's answer is an `ActionResult`: `{ ok: true, message? }` or `{ ok: false, status, error,
 * fieldErrors? }`, each side extended with what its page needs (which form, the values to refill).
 * `actionResponse` turns it into the route's response (200 for ok, the failure's status otherwise), and
 * a page reads what to show of it with `formErrors`.
 *
 * The server parses a submitted form with the form's zod schema through `parseForm`; a failure is
 * `{ ok: false, status: 400, error, fieldErrors, inFields: true }`: `fieldErrors` for the fields that
 * show their own message, `error` (the first message) for a form whose fields do not. Forms that can
 * check themselves in the browser use `useFormErrors` with the same schema. Nothing here imports zod:
 * these run in the browser before a form's schema has arrived.
 */
import { data } from "react-router";

export type FieldErrors = Partial<Record<string, string>>;

/** A success: the message to show, if any, and what else the page needs (`Extra`). */
export type ActionSuccess<Extra extends object = object> = { ok: true; message?: string } & Extra;

/** A refusal: the HTTP status, the form's alert, each field's own message, and what else the page needs. */
export type ActionFailure<Extra extends object = object> = {
  ok: false;
  status: number;
  error: string;
  fieldErrors?: FieldErrors;
  /**
   * The error is also a field's own message (the form broke its schema's rules): a form that shows
   * its fields' messages shows no alert for it.
   */
  inFields?: true;
} & Extra;

/** What every action answers, and what a feature function called by one returns. */
export type ActionResult<Ok extends object = object, Failed extends object = object> =
  | ActionSuccess<Ok>
  | ActionFailure<Failed>;

/**
 * The route's response for an action's result: 200 for a success, the failure's status otherwise
 * (`headers`: a 429's Retry-After, cookies).
 */
export function actionResponse<R extends ActionResult<object, object>>(result: R, headers?: HeadersInit) {
  return data(result, { status: result.ok ? 200 : result.status, headers });
}

/** The failure of an action's answer, for a page that needs more of it than `formErrors` gives. */
export function failureOf<R extends { ok: boolean }>(result: R | null | undefined) {
  return result && !result.ok ? (result as Extract<R, { ok: false }>) : null;
}

/**
 * What a form shows of its action's answer, read one way by every page: `alert` for the form's alert
 * (none when the fields already say it, `inFields`), `error` the refusal's message whatever its kind
 * (for a form without field messages), `fieldErrors` for each field, `message` a success's message.
 */
export function formErrors(result: ActionResult<object, object> | null | undefined): {
  alert: string | null;
  error: string | null;
  fieldErrors: FieldErrors;
  message: string | null;
} {
  if (!result) return { alert: null, error: null, fieldErrors: {}, message: null };
  if (result.ok) return { alert: null, error: null, fieldErrors: {}, message: result.message ?? null };
  return {
    alert: result.inFields ? null : result.error,
    error: result.error,
    fieldErrors: result.fieldErrors ?? {},
    message: null,
  };
}

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

/** What a form its schema rejected answers (400): each field's own message, the first as `error`. */
export type FormFailure = ActionFailure<{ status: 400; fieldErrors: FieldErrors; inFields: true }>;

/** Any zod (or zod/mini) schema: only `safeParse` is used. */
export interface FormSchema<T> {
  safeParse(input: unknown): { success: true; data: T } | { success: false; error: Issues };
}

/** Checks a form's values against its schema: the data, or the failure to answer with (status 400). */
export function parseForm<T>(schema: FormSchema<T>, values: unknown): { ok: true; data: T } | FormFailure {
  const parsed = schema.safeParse(values);
  if (parsed.success) return { ok: true, data: parsed.data };
  return formFailure(parsed.error.issues[0]?.message ?? "Please check the form.", fieldErrors(parsed.error));
}

/** A schema's rejection (400): the first message and each field's own. */
export function formFailure(error: string, errors: FieldErrors): FormFailure {
  return { ok: false, status: 400, error, fieldErrors: errors, inFields: true };
}
