import { type FormEvent, useRef, useState } from "react";
import type * as z from "zod/mini";
import { type FieldErrors, fieldErrors, formValues } from "./form";

/** A form's zod schema, fetched on demand: `() => import("./forms").then((m) => m.loginSchema)`. */
export type SchemaLoader = () => Promise<z.ZodMiniType>;

/**
 * Field errors of a form: the server's (from the action) until the browser checks the form
 * itself with the same zod schema on submit; an edited field's error clears.
 *
 * The schema (and zod with it) is not part of the page's JavaScript: it is fetched when the visitor
 * first focuses the form (ADR 0810). A submit before it has arrived waits for it, is checked, and is
 * then sent; if it cannot be fetched the form is sent as it is and the server's check answers.
 */
export function useFormErrors(loadSchema: SchemaLoader, serverErrors: FieldErrors | undefined) {
  const [clientErrors, setClientErrors] = useState<FieldErrors | null>(null);
  const schema = useRef<z.ZodMiniType | null | "unavailable">(null);
  const loading = useRef<Promise<unknown> | null>(null);
  const errors = clientErrors ?? serverErrors ?? {};

  const load = () => {
    loading.current ??= loadSchema().then(
      (loaded) => {
        schema.current = loaded;
      },
      () => {
        schema.current = "unavailable";
      },
    );
    return loading.current;
  };

  return {
    errors,
    /** Starts fetching the rules as soon as the visitor begins with the form. */
    onFocus: () => void load(),
    /** Blocks the submit and shows the messages when the form breaks a rule. */
    onSubmit(event: FormEvent<HTMLFormElement>) {
      const rules = schema.current;
      if (rules === "unavailable") return;
      const form = event.currentTarget;
      if (!rules) {
        event.preventDefault();
        const submitter = (event.nativeEvent as SubmitEvent).submitter;
        void load().then(() => form.requestSubmit(submitter?.isConnected ? submitter : undefined));
        return;
      }
      const parsed = rules.safeParse(formValues(new FormData(form)));
      if (parsed.success) return setClientErrors(null);
      event.preventDefault();
      setClientErrors(fieldErrors(parsed.error));
    },
    clear: (field: string) => () => setClientErrors({ ...errors, [field]: undefined }),
  };
}
