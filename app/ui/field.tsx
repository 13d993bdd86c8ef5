import { type ComponentProps, type ReactNode, useId, useState } from "react";
import { Icon } from "~/ui/icon";
import { cn } from "./cn";

type InputProps = Omit<ComponentProps<"input">, "id"> & {
  label: string;
  error?: string | null;
  hint?: ReactNode;
};

export const inputClass =
  "block w-full rounded-lg border bg-white px-3 py-2 text-ink shadow-sm placeholder:text-slate-400 focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600/30 disabled:bg-slate-100";

interface ControlAttributes {
  id: string;
  "aria-invalid": true | undefined;
  "aria-describedby": string | undefined;
  className: string;
}

/** The frame every labelled control shares: label, the control, its hint and its error, tied together. */
function LabelledControl({
  label,
  error,
  hint,
  className,
  control,
}: {
  label: string;
  error?: string | null;
  hint?: ReactNode;
  className: string;
  control: (attributes: ControlAttributes) => ReactNode;
}) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [error ? errorId : null, hint ? hintId : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      {control({
        id,
        "aria-invalid": error ? true : undefined,
        "aria-describedby": describedBy,
        className: cn(inputClass, "mt-1", error ? "border-red-600" : "border-slate-300"),
      })}
      {hint && (
        <div id={hintId} className="mt-1 text-sm text-slate-600">
          {hint}
        </div>
      )}
      {error && (
        <p id={errorId} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * A labelled input; its error is tied to it with aria-describedby and aria-invalid. Its type is always
 * written out ("text" unless given): a bare input with an autocomplete hint is flagged by checkers.
 */
export function TextField({ label, error, hint, className = "", type = "text", ...props }: InputProps) {
  return (
    <LabelledControl
      label={label}
      error={error}
      hint={hint}
      className={className}
      control={({ id, className: inputClasses, ...a11y }) => (
        <input id={id} {...a11y} className={inputClasses} {...props} type={type} />
      )}
    />
  );
}

type TextAreaProps = Omit<ComponentProps<"textarea">, "id"> & {
  label: string;
  error?: string | null;
  hint?: ReactNode;
};

/** A labelled textarea, its hint and error tied to it like TextField's. */
export function TextAreaField({ label, error, hint, className = "", rows = 4, ...props }: TextAreaProps) {
  return (
    <LabelledControl
      label={label}
      error={error}
      hint={hint}
      className={className}
      control={({ id, className: inputClasses, ...a11y }) => (
        <textarea id={id} rows={rows} {...a11y} className={inputClasses} {...props} />
      )}
    />
  );
}

/** The account forms' email address: labelled "Email Address", typed, required, filled in by the browser. */
export function EmailField(props: Omit<InputProps, "label" | "type"> & { label?: string }) {
  return (
    <TextField label="Email Address" name="email" type="email" autoComplete="email" required {...props} />
  );
}

/** A form's own error (not a field's), if any: announced as an alert. */
export function FormError({ message }: { message?: string | null }) {
  return message ? <Alert tone="error">{message}</Alert> : null;
}

/** A password input with a show/hide toggle. */
export function PasswordField(props: Omit<InputProps, "type">) {
  const [visible, setVisible] = useState(false);
  return (
    <div className="relative">
      <TextField {...props} type={visible ? "text" : "password"} className={props.className} />
      <button
        type="button"
        aria-pressed={visible}
        onClick={() => setVisible((v) => !v)}
        className="absolute right-2 top-7 rounded p-1.5 text-slate-600 hover:text-ink"
      >
        {visible ? <Icon name="eye-off" className="size-4" /> : <Icon name="eye" className="size-4" />}
        <span className="sr-only">
          {visible ? `Hide ${props.label.toLowerCase()}` : `Show ${props.label.toLowerCase()}`}
        </span>
      </button>
    </div>
  );
}

export function Alert({ tone, children }: { tone: "error" | "success" | "info"; children: ReactNode }) {
  const styles = {
    error: "border-red-200 bg-red-50 text-red-800",
    success: "border-green-200 bg-green-50 text-green-800",
    info: "border-brand-100 bg-brand-50 text-brand-800",
  }[tone];
  return (
    <div
      role={tone === "error" ? "alert" : "status"}
      className={cn("rounded-lg border px-4 py-3 text-sm", styles)}
    >
      {children}
    </div>
  );
}
