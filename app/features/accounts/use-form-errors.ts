import { type FormEvent, useState } from "react";
import type { z } from "zod";
import { type FieldErrors, fieldErrors, formValues } from "./forms";

/**
 * Field errors of an account form: the server's (from the action) until the browser checks the form
 * itself with the same zod schema on submit; an edited field's error clears.
 */
export function useFormErrors(schema: z.ZodType, serverErrors: FieldErrors | undefined) {
  const [clientErrors, setClientErrors] = useState<FieldErrors | null>(null);
  const errors = clientErrors ?? serverErrors ?? {};
  return {
    errors,
    /** Blocks the submit and shows the messages when the form breaks a rule. */
    onSubmit(event: FormEvent<HTMLFormElement>) {
      const parsed = schema.safeParse(formValues(new FormData(event.currentTarget)));
      if (parsed.success) return setClientErrors(null);
      event.preventDefault();
      setClientErrors(fieldErrors(parsed.error));
    },
    clear: (field: string) => () => setClientErrors({ ...errors, [field]: undefined }),
  };
}
