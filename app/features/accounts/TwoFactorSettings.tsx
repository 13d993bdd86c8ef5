/**
 * Two-factor authentication settings: turn it on (password, QR code and key, a first code), show the
 * backup codes once, make new ones, turn it off. Plain forms posted to the page's own action (profile,
 * or the admins' setup page), so every step works without JavaScript.
 */
import { Form, useNavigation } from "react-router";
import { Button } from "~/ui/button";
import { Alert, PasswordField, TextField } from "~/ui/field";
import type { TwoFactorIntent, TwoFactorView } from "./two-factor";

function IntentForm({
  intent,
  view,
  children,
}: {
  intent: TwoFactorIntent;
  view: TwoFactorView;
  children: React.ReactNode;
}) {
  const mine = view.intent === intent;
  return (
    <Form method="post" className="space-y-4" noValidate>
      <input type="hidden" name="intent" value={intent} />
      {mine && view.notice?.tone === "error" && <Alert tone="error">{view.notice.text}</Alert>}
      {children}
    </Form>
  );
}

function useBusy(intent: TwoFactorIntent): boolean {
  const navigation = useNavigation();
  return navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
}

function ConfirmPassword({ view, intent }: { view: TwoFactorView; intent: TwoFactorIntent }) {
  return (
    <PasswordField
      label="Confirm with your password"
      name="password"
      autoComplete="current-password"
      required
      error={view.intent === intent ? view.fieldErrors.password : undefined}
    />
  );
}

/** The key in groups of four, as authenticator apps show it. */
function groupKey(secret: string): string {
  return secret.replace(/(.{4})/g, "$1 ").trim();
}

function Setup({ view }: { view: TwoFactorView }) {
  const setup = view.setup;
  const confirming = useBusy("twoFactorConfirm");
  const cancelling = useBusy("twoFactorCancel");
  if (!setup) return null;
  return (
    <div className="space-y-4">
      <ol className="list-decimal space-y-4 pl-5 text-sm text-slate-700">
        <li>
          Scan this QR code with an authenticator app (such as Google Authenticator, Microsoft Authenticator,
          1Password or Aegis).
          <svg
            role="img"
            aria-label="QR code to add this account to an authenticator app"
            viewBox={`0 0 ${setup.qr.size} ${setup.qr.size}`}
            className="mt-3 size-48 rounded-lg border border-slate-200 bg-white"
            shapeRendering="crispEdges"
          >
            <rect width={setup.qr.size} height={setup.qr.size} fill="#fff" />
            <path d={setup.qr.path} fill="#000" />
          </svg>
        </li>
        <li>
          Or type this key into the app:{" "}
          <code
            data-testid="totp-secret"
            className="break-all rounded bg-slate-100 px-2 py-1 font-mono text-sm text-ink"
          >
            {groupKey(setup.secret)}
          </code>
        </li>
        <li>Enter the 6-digit code the app shows to turn two-factor authentication on.</li>
      </ol>
      <IntentForm intent="twoFactorConfirm" view={view}>
        <TextField
          label="6-digit code"
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={12}
          required
          error={view.intent === "twoFactorConfirm" ? view.fieldErrors.code : undefined}
        />
        <Button type="submit" disabled={confirming}>
          {confirming ? "Checking..." : "Turn On Two-Factor Authentication"}
        </Button>
      </IntentForm>
      <IntentForm intent="twoFactorCancel" view={view}>
        <Button type="submit" variant="secondary" disabled={cancelling}>
          Cancel Setup
        </Button>
      </IntentForm>
    </div>
  );
}

function BackupCodes({ codes, Heading }: { codes: string[]; Heading: "h2" | "h3" }) {
  return (
    <section
      aria-labelledby="backup-codes-title"
      className="rounded-lg border border-amber-300 bg-amber-50 p-4"
    >
      <Heading id="backup-codes-title" className="font-semibold text-ink">
        Your backup codes
      </Heading>
      <p className="mt-1 text-sm text-slate-700">
        Keep them somewhere safe (a password manager, or printed). Each one signs you in once if you lose your
        authenticator app. They will not be shown again.
      </p>
      <ul data-testid="backup-codes" className="mt-3 grid grid-cols-2 gap-2 font-mono text-sm text-ink">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
    </section>
  );
}

/** `headingLevel`: the level of its section headings under the page's own (2 below an h1, 3 below an h2). */
export function TwoFactorSettings({ view, headingLevel = 2 }: { view: TwoFactorView; headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const starting = useBusy("twoFactorStart");
  const regenerating = useBusy("twoFactorBackupCodes");
  const disabling = useBusy("twoFactorDisable");
  const success = view.notice?.tone === "success" ? view.notice.text : null;
  return (
    <div className="max-w-xl space-y-6">
      {success && <Alert tone="success">{success}</Alert>}
      {view.status === "off" && (
        <>
          <p className="text-sm text-slate-700">
            Two-factor authentication is <strong>off</strong>. Turn it on and signing in will also ask for a
            code from an authenticator app on your phone, so a stolen password alone is not enough.
          </p>
          <IntentForm intent="twoFactorStart" view={view}>
            <ConfirmPassword view={view} intent="twoFactorStart" />
            <Button type="submit" disabled={starting}>
              {starting ? "Starting..." : "Set Up Two-Factor Authentication"}
            </Button>
          </IntentForm>
        </>
      )}
      {view.status === "pending" &&
        (view.setup ? (
          <Setup view={view} />
        ) : (
          <IntentForm intent="twoFactorCancel" view={view}>
            <p className="text-sm text-slate-700">A setup was started but not finished.</p>
            <Button type="submit" variant="secondary">
              Cancel Setup
            </Button>
          </IntentForm>
        ))}
      {view.status === "on" && (
        <>
          <p className="text-sm text-slate-700">
            Two-factor authentication is <strong>on</strong>. Signing in asks for a code from your
            authenticator app, or one of your backup codes.
          </p>
          {view.backupCodes && <BackupCodes codes={view.backupCodes} Heading={Heading} />}
          <section aria-labelledby="regenerate-title" className="space-y-3">
            <Heading id="regenerate-title" className="font-semibold text-ink">
              New backup codes
            </Heading>
            <p className="text-sm text-slate-700">Makes ten new codes; the old ones stop working.</p>
            <IntentForm intent="twoFactorBackupCodes" view={view}>
              <ConfirmPassword view={view} intent="twoFactorBackupCodes" />
              <Button type="submit" variant="secondary" disabled={regenerating}>
                {regenerating ? "Making..." : "Make New Backup Codes"}
              </Button>
            </IntentForm>
          </section>
          <section aria-labelledby="disable-title" className="space-y-3">
            <Heading id="disable-title" className="font-semibold text-ink">
              Turn off
            </Heading>
            <IntentForm intent="twoFactorDisable" view={view}>
              <ConfirmPassword view={view} intent="twoFactorDisable" />
              <Button type="submit" variant="secondary" disabled={disabling}>
                {disabling ? "Turning off..." : "Turn Off Two-Factor Authentication"}
              </Button>
            </IntentForm>
          </section>
        </>
      )}
    </div>
  );
}
