/**
 * The profile page's Privacy tab (issue 25): "Download my data" and "Delete my account".
 */
import { Form, useNavigation } from "react-router";
import { type ProfileActionData, profileNotice } from "~/features/accounts/profile";
import { Button } from "~/ui/button";
import { Alert, PasswordField, TextField } from "~/ui/field";
import { formErrors } from "~/ui/form";
import type { DeletionBlocker, PrivacyTabData } from "./account-deletion";
import { DeleteConfirmField } from "./DeleteConfirmField";
import { DATA_EXPORTS_PER_DAY } from "./data-export";

/** "2 of 3 downloads left today." */
export function exportsLeftText(left: number): string {
  if (left === 0)
    return `You have used today's ${DATA_EXPORTS_PER_DAY} downloads; you can download it again tomorrow.`;
  return `${left} of ${DATA_EXPORTS_PER_DAY} downloads left today.`;
}

/**
 * "Delete my account" (issue 25, ADR 0520): the current password, the two-factor code when it is on,
 * and DELETE typed; posted to the page's action, which signs out and shows that it is done. Plain
 * uncontrolled inputs, so what is typed before hydration is what is sent.
 */
function DeleteAccount({
  twoFactorOn,
  blockers,
  result,
}: {
  twoFactorOn: boolean;
  blockers: DeletionBlocker[];
  result: ProfileActionData | undefined;
}) {
  const navigation = useNavigation();
  const mine = result?.form === "deleteAccount" ? result : undefined;
  const notice = profileNotice(mine);
  const { fieldErrors } = formErrors(mine);
  const deleting = navigation.formData?.get("intent") === "deleteAccount";
  return (
    <section aria-labelledby="delete-title" className="max-w-xl space-y-4 border-t border-slate-200 pt-8">
      <h2 id="delete-title" className="text-lg font-semibold">
        Delete my account
      </h2>
      <p className="text-sm text-slate-700">
        This signs you out everywhere and deletes your profile, preferences, notifications, the files on your
        orders and your contact messages. Unpaid pending orders are cancelled. The invoices, credit notes and
        quotes we issued to you are kept as issued, as tax law requires (see our{" "}
        <a href="/privacy" className="text-brand-700 underline">
          privacy policy
        </a>
        ). It cannot be undone; you may register again later as a new client.
      </p>
      {notice && <Alert tone={notice.tone}>{notice.text}</Alert>}
      {blockers.length > 0 ? (
        <DeletionBlockers blockers={blockers} />
      ) : (
        <Form method="post" className="space-y-4" noValidate>
          <input type="hidden" name="intent" value="deleteAccount" />
          <PasswordField
            label="Your password"
            name="password"
            autoComplete="current-password"
            hint="The one you sign in with"
            required
            error={fieldErrors.password}
          />
          {twoFactorOn && (
            <TextField
              label="Two-factor code"
              name="code"
              inputMode="text"
              autoComplete="one-time-code"
              hint="The 6-digit code from your authenticator app, or a backup code"
              required
              error={fieldErrors.code}
            />
          )}
          <DeleteConfirmField error={fieldErrors.confirm} />
          <Button type="submit" variant="danger" disabled={deleting}>
            {deleting ? "Deleting..." : "Delete my account"}
          </Button>
        </Form>
      )}
    </section>
  );
}

/**
 * What refuses the deletion now, shown instead of the form (issue 37, item 11): each blocker named, an
 * unpaid invoice with its Pay button (a plain form to the invoice's checkout, as the invoices list's).
 */
function DeletionBlockers({ blockers }: { blockers: DeletionBlocker[] }) {
  const unpaid = blockers.some((b) => b.kind === "unpaid-invoice");
  const owed = blockers.some((b) => b.kind === "work-owed");
  const plan = blockers.some((b) => b.kind === "care-plan");
  return (
    <div
      className="space-y-3 rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm"
      data-testid="deletion-blockers"
    >
      <p className="font-semibold text-ink">Your account cannot be deleted yet:</p>
      <ul className="space-y-2">
        {blockers.map((b) =>
          b.kind === "unpaid-invoice" ? (
            <li key={b.invoiceId} className="flex flex-wrap items-center gap-3">
              <span>
                Unpaid invoice{" "}
                <a href={`/client/invoice/${b.invoiceId}`} className="text-brand-700 underline">
                  {b.invoiceNumber}
                </a>{" "}
                ({b.serviceName})
              </span>
              <form method="post" action={`/client/invoices/${b.invoiceId}/pay`}>
                <Button type="submit">
                  Pay<span className="sr-only">{` invoice ${b.invoiceNumber}`}</span>
                </Button>
              </form>
            </li>
          ) : b.kind === "care-plan" ? (
            <li key={b.subscriptionId} className="flex flex-wrap items-center gap-3">
              <span>Care plan {b.planName} (still renewing)</span>
              <a href={`/client/plans/${b.subscriptionId}/cancel`} className="text-brand-700 underline">
                Cancel it<span className="sr-only">{` (${b.planName})`}</span>
              </a>
            </li>
          ) : (
            <li key={b.orderId}>
              Order{" "}
              <a href={`/client/orders/${b.orderId}`} className="text-brand-700 underline">
                {b.serviceName}
              </a>{" "}
              ({b.status === "paid" ? "paid, work not started" : "in progress"})
            </li>
          ),
        )}
      </ul>
      <p className="text-slate-700">
        {[
          unpaid && "Pay the unpaid invoices",
          owed && "wait until the work is completed (or ask us to cancel it)",
          plan && "cancel the care plan (it then ends with its period)",
        ]
          .filter(Boolean)
          .join(", and ")}
        , then come back here to delete your account.
      </p>
    </div>
  );
}

/**
 * "Download my data" (issue 25): a plain form posted to the export route, which answers the zip as a
 * download (the page stays where it is), or a 429 with its message past the day's limit.
 */
export function PrivacyTab({
  twoFactorOn,
  privacy,
  result,
}: {
  twoFactorOn: boolean;
  privacy: PrivacyTabData;
  result: ProfileActionData | undefined;
}) {
  return (
    <div className="space-y-8">
      <section aria-labelledby="export-title" className="max-w-xl space-y-4">
        <h2 id="export-title" className="text-lg font-semibold">
          Download my data
        </h2>
        <p className="text-sm text-slate-700">
          One zip file with everything we keep about you: your profile and preferences, your orders, invoices,
          credit notes and quotes, the messages on your orders, your notifications, your sign-in sessions and
          your consents, as JSON files with a README; every invoice, credit note and quote as a PDF; and the
          files attached to your orders' messages.
        </p>
        <p className="text-sm text-slate-700" data-testid="exports-left">
          {exportsLeftText(privacy.exportsLeft)} Each download is recorded.
        </p>
        <form method="post" action="/client/profile/export">
          <Button type="submit">Download my data</Button>
        </form>
      </section>
      <DeleteAccount twoFactorOn={twoFactorOn} blockers={privacy.deletionBlockers} result={result} />
    </div>
  );
}
