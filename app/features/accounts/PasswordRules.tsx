import { Icon } from "~/ui/icon";
import { passwordChecklist } from "./password";

/**
 * The password rules under a new-password field, listed once and shown before anything is typed (issue
 * 37, item 13: not only after an error); each is ticked or crossed as the person types.
 */
export function PasswordRules({ password, id }: { password: string; id: string }) {
  return (
    <div>
      <p id={id} className="text-xs font-medium text-slate-700">
        Your password needs:
      </p>
      <ul aria-labelledby={id} className="mt-1 grid gap-x-4 gap-y-0.5 text-xs sm:grid-cols-2">
        {passwordChecklist(password).map(({ key, label, met }) => (
          <li
            key={key}
            data-rule={key}
            data-met={met === null ? undefined : String(met)}
            className={`flex items-start gap-1.5 ${met ? "text-green-800" : met === false ? "text-slate-700" : "text-slate-600"}`}
          >
            <Icon
              name={met ? "circle-check" : met === false ? "circle-x" : "circle"}
              className={`mt-px size-3.5 shrink-0 ${met ? "text-green-700" : met === false ? "text-red-700" : "text-slate-500"}`}
            />
            <span>{label}</span>
            {met !== null && <span className="sr-only">{met ? "(met)" : "(not met yet)"}</span>}
          </li>
        ))}
      </ul>
    </div>
  );
}
