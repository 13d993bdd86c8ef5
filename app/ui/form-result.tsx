/**
 * What the site's fetcher forms (the contact form, the quote request form) share about their answer:
 * where focus goes when it arrives, and the alert that carries a failure's message.
 */
import { type Ref, useEffect, useRef } from "react";

/** The answer of such a form, as far as focus cares: a success, or a failure naming a field or not. */
type FocusableResult = { ok: true } | { ok: false; field?: string | null };

/**
 * Moves focus to what changed once the page is hydrated, so keyboard and screen-reader users land on
 * the result: the success heading, the field at fault, or the alert.
 */
export function useResultFocus(result: FocusableResult | undefined, enhanced: boolean) {
  const formRef = useRef<HTMLFormElement>(null);
  const alertRef = useRef<HTMLDivElement>(null);
  const successRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (!enhanced || !result) return;
    if (result.ok) successRef.current?.focus();
    else if (result.field) formRef.current?.querySelector<HTMLElement>(`[name="${result.field}"]`)?.focus();
    else alertRef.current?.focus();
  }, [result, enhanced]);
  return { formRef, alertRef, successRef };
}

/**
 * The form's alert: always in the document (a live region must exist before its text changes), visible
 * only with a message. Fields at fault point at it with aria-describedby.
 */
export function FormAlert({
  id,
  message,
  ref,
}: {
  id: string;
  message: string | undefined;
  ref: Ref<HTMLDivElement>;
}) {
  return (
    <div
      ref={ref}
      id={id}
      role="alert"
      tabIndex={-1}
      className={message ? "rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-800" : "sr-only"}
    >
      {message}
    </div>
  );
}
