/**
 * The profile page's Security tab: change password (`intent=password`) and the two-factor settings,
 * plain forms posted to the page's action (profile.server.ts).
 */
import { Form, useNavigation } from "react-router";
import { Button } from "~/ui/button";
import { Alert, PasswordField } from "~/ui/field";
import { formErrors } from "~/ui/form";
import { NewPasswordFields } from "./NewPasswordFields";
import { type ProfileActionData, profileNotice } from "./profile";
import { TwoFactorSettings } from "./TwoFactorSettings";
import type { TwoFactorView } from "./two-factor";

function PasswordChange({ result }: { result: ProfileActionData | undefined }) {
  const navigation = useNavigation();
  const mine = result?.form === "password" ? result : undefined;
  const notice = profileNotice(mine);
  const { fieldErrors } = formErrors(mine);
  const saving = navigation.formData?.get("intent") === "password";
  return (
    <Form method="post" className="max-w-xl space-y-4" noValidate>
      <input type="hidden" name="intent" value="password" />
      {notice && <Alert tone={notice.tone}>{notice.text}</Alert>}
      <PasswordField
        label="Current Password"
        name="currentPassword"
        autoComplete="current-password"
        required
        error={fieldErrors.currentPassword}
      />
      <NewPasswordFields
        label="New Password"
        name="newPassword"
        confirmLabel="Confirm New Password"
        errors={fieldErrors}
      />
      <Button type="submit" disabled={saving}>
        {saving ? "Updating..." : "Update Password"}
      </Button>
    </Form>
  );
}

/** The tab: the password form, then the two-factor settings (as the last answer left them, else as loaded). */
export function SecurityTab({
  twoFactor,
  result,
}: {
  twoFactor: TwoFactorView;
  result: ProfileActionData | undefined;
}) {
  return (
    <div className="space-y-10">
      <PasswordChange result={result} />
      <section aria-labelledby="two-factor-title" className="space-y-4">
        <h2 id="two-factor-title" className="text-lg font-semibold">
          Two-Factor Authentication
        </h2>
        <TwoFactorSettings view={result?.twoFactor ?? twoFactor} headingLevel={3} />
      </section>
    </div>
  );
}
