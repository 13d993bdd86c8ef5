/** The profile page's Notifications tab: which emails the client gets (`intent=notifications`). */
import { Form, useNavigation } from "react-router";
import { Button } from "~/ui/button";
import { Alert } from "~/ui/field";
import { NOTIFICATION_SWITCHES, type NotificationPreferences } from "./notification-preferences";
import { type ProfileActionData, profileNotice } from "./profile";

/**
 * The notification switches: native checkboxes drawn as switches (a checkbox's own checked state is
 * what assistive technology reads, with or without JavaScript), saved with the account by the button.
 */
export function NotificationsTab({
  saved,
  result,
}: {
  saved: NotificationPreferences;
  result: ProfileActionData | undefined;
}) {
  const navigation = useNavigation();
  const mine = result?.form === "notifications" ? result : undefined;
  const notice = profileNotice(mine);
  const current = mine?.notifications ?? saved;
  const saving = navigation.formData?.get("intent") === "notifications";
  return (
    <Form method="post" className="max-w-xl space-y-4">
      <input type="hidden" name="intent" value="notifications" />
      {notice && <Alert tone={notice.tone}>{notice.text}</Alert>}
      <fieldset className="space-y-3">
        <legend className="mb-3 text-sm text-slate-600">
          Which emails we send you. Notifications in the portal always appear.
        </legend>
        {NOTIFICATION_SWITCHES.map((s) => {
          const id = `notify-${s.key}`;
          return (
            <div
              key={s.key}
              className="flex items-center justify-between gap-4 rounded-lg border border-slate-200 bg-white p-4"
            >
              <div>
                {s.unavailable ? (
                  <p className="font-medium">{s.label}</p>
                ) : (
                  <label htmlFor={id} className="font-medium">
                    {s.label}
                  </label>
                )}
                <p id={`${id}-hint`} className="text-sm text-slate-600">
                  {s.description}
                </p>
              </div>
              {s.unavailable ? (
                // Nothing to switch yet: said in words, not drawn as a switch that looks off.
                <p
                  data-unavailable={s.key}
                  className="shrink-0 rounded-md bg-slate-100 px-2 py-1 text-right text-sm font-medium text-slate-700"
                >
                  {s.unavailable}
                </p>
              ) : (
                <span className="relative inline-flex shrink-0">
                  <input
                    type="checkbox"
                    id={id}
                    name={s.key}
                    defaultChecked={current[s.key]}
                    aria-describedby={`${id}-hint`}
                    className="peer h-6 w-11 cursor-pointer appearance-none rounded-full bg-slate-500 transition-colors checked:bg-brand-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
                  />
                  <span
                    aria-hidden="true"
                    className="pointer-events-none absolute top-0.5 left-0.5 size-5 rounded-full bg-white transition-transform peer-checked:translate-x-5"
                  />
                </span>
              )}
            </div>
          );
        })}
      </fieldset>
      <Button type="submit" disabled={saving}>
        {saving ? "Saving..." : "Save Preferences"}
      </Button>
    </Form>
  );
}
