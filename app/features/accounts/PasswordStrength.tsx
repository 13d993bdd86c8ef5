import { passwordStrength } from "./password";

const LABEL = { weak: "Weak", medium: "Medium", strong: "Strong" } as const;
const BAR = {
  weak: "w-1/3 bg-red-600",
  medium: "w-2/3 bg-amber-500",
  strong: "w-full bg-green-600",
} as const;

/** The live strength indicator under a new-password field (its rules are PasswordRules, listed once). */
export function PasswordStrength({ password }: { password: string }) {
  if (!password) return null;
  const strength = passwordStrength(password);
  return (
    <div aria-live="polite" data-strength={strength}>
      <div className="h-1.5 w-full rounded-full bg-slate-200" aria-hidden="true">
        <div className={`h-1.5 rounded-full transition-all ${BAR[strength]}`} />
      </div>
      <p className="mt-1 text-xs text-slate-700">
        Password strength: <strong>{LABEL[strength]}</strong>
      </p>
    </div>
  );
}
