import { useEffect, useId, useRef, useState } from "react";
import { PasswordField } from "~/ui/field";
import { PasswordRules } from "./PasswordRules";
import { PasswordStrength } from "./PasswordStrength";

/**
 * A new password with its rules (listed before anything is typed, each ticked as it is met) and its live
 * strength indicator, and its confirmation: the same pair on registration, password reset and the
 * profile's password change.
 */
export function NewPasswordFields({
  label = "Password",
  name = "password",
  confirmLabel = "Confirm Password",
  errors,
  onEdit,
}: {
  label?: string;
  name?: string;
  confirmLabel?: string;
  errors: { [field: string]: string | undefined };
  /** Called with the field's name when the person edits it (to clear its error). */
  onEdit?: (field: string) => void;
}) {
  const [password, setPassword] = useState("");
  const input = useRef<HTMLInputElement>(null);
  const rulesId = useId();
  // A password typed before hydration is already in the field: show its strength at once.
  useEffect(() => {
    if (input.current?.value) setPassword(input.current.value);
  }, []);
  return (
    <>
      <PasswordField
        label={label}
        ref={input}
        name={name}
        autoComplete="new-password"
        required
        error={errors[name]}
        onChange={(e) => {
          setPassword(e.currentTarget.value);
          onEdit?.(name);
        }}
        hint={
          <>
            <PasswordRules password={password} id={rulesId} />
            <PasswordStrength password={password} />
          </>
        }
      />
      <PasswordField
        label={confirmLabel}
        name="confirmPassword"
        autoComplete="new-password"
        required
        error={errors.confirmPassword}
        onChange={() => onEdit?.("confirmPassword")}
      />
    </>
  );
}
