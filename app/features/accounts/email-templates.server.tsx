/**
 * The account emails: address verification, welcome (client-portal.md §7, registration_welcome),
 * password reset and the security alerts.
 */

import type { BusinessIdentity } from "~/features/business/business";
import { EmailButton, EmailLayout, textFooter } from "~/features/mail/EmailLayout";
import type { EmailContent } from "~/features/mail/email";
import { renderEmailHtml } from "~/features/mail/render.server";
import { formatMoment, type TimeZone } from "~/ui/format";
import { RESET_LINK_TTL_SECONDS, VERIFICATION_LINK_TTL_SECONDS } from "./auth.server";
import type { SecurityEvent } from "./security-alerts";

interface Common {
  business: BusinessIdentity;
  publicUrl: string;
  name: string;
}

const hours = (seconds: number) => Math.round(seconds / 3600);

export function verificationEmail({
  business,
  publicUrl,
  name,
  url,
}: Common & { url: string }): EmailContent {
  const subject = `Confirm your email address for ${business.name}`;
  const valid = `This link works once and expires in ${hours(VERIFICATION_LINK_TTL_SECONDS)} hours.`;
  const html = renderEmailHtml(
    <EmailLayout business={business} publicUrl={publicUrl} preview="One click to confirm your email address.">
      <h1 style={{ fontSize: "20px", margin: "0 0 16px" }}>Confirm your email address</h1>
      <p style={{ margin: "0 0 16px" }}>
        Hello {name}, please confirm this address to finish setting up your client account.
      </p>
      <EmailButton href={url}>Verify My Email</EmailButton>
      <p style={{ margin: "20px 0 0", color: "#64748b", fontSize: "13px" }}>
        {valid} If you did not create an account, you can ignore this email.
      </p>
    </EmailLayout>,
  );
  const text = [
    `Hello ${name},`,
    "",
    "Please confirm this address to finish setting up your client account:",
    url,
    "",
    `${valid} If you did not create an account, you can ignore this email.`,
    "",
    textFooter(business, publicUrl),
  ].join("\n");
  return { subject, html, text };
}

export function welcomeEmail({ business, publicUrl, name }: Common): EmailContent {
  const loginUrl = `${publicUrl}/client/login`;
  const subject = `Welcome to ${business.name}`;
  const html = renderEmailHtml(
    <EmailLayout business={business} publicUrl={publicUrl} preview="Your client account is almost ready.">
      <h1 style={{ fontSize: "20px", margin: "0 0 16px" }}>Welcome, {name}!</h1>
      <p style={{ margin: "0 0 12px" }}>
        Thank you for creating a client account. Once you have confirmed your email address with the link we
        sent separately, you can log in to buy services, follow your orders and download your invoices.
      </p>
      <EmailButton href={loginUrl}>Go to Login</EmailButton>
      <p style={{ margin: "20px 0 0" }}>
        Questions? Write to <a href={`mailto:${business.email}`}>{business.email}</a>.
      </p>
    </EmailLayout>,
  );
  const text = [
    `Welcome, ${name}!`,
    "",
    "Thank you for creating a client account. Once you have confirmed your email address with the link we",
    "sent separately, you can log in to buy services, follow your orders and download your invoices.",
    "",
    `Log in: ${loginUrl}`,
    `Questions? Write to ${business.email}.`,
    "",
    textFooter(business, publicUrl),
  ].join("\n");
  return { subject, html, text };
}

export function passwordResetEmail({
  business,
  publicUrl,
  name,
  url,
}: Common & { url: string }): EmailContent {
  const subject = `Reset your ${business.name} password`;
  const valid = `This link works once and expires in ${hours(RESET_LINK_TTL_SECONDS)} hour.`;
  const html = renderEmailHtml(
    <EmailLayout business={business} publicUrl={publicUrl} preview="A link to choose a new password.">
      <h1 style={{ fontSize: "20px", margin: "0 0 16px" }}>Reset your password</h1>
      <p style={{ margin: "0 0 16px" }}>
        Hello {name}, someone (we hope you) asked to reset the password of your client account.
      </p>
      <EmailButton href={url}>Choose a New Password</EmailButton>
      <p style={{ margin: "20px 0 0", color: "#64748b", fontSize: "13px" }}>
        {valid} If you did not ask for this, ignore this email: your password stays as it is.
      </p>
    </EmailLayout>,
  );
  const text = [
    `Hello ${name},`,
    "",
    "Someone (we hope you) asked to reset the password of your client account. Choose a new one here:",
    url,
    "",
    `${valid} If you did not ask for this, ignore this email: your password stays as it is.`,
    "",
    textFooter(business, publicUrl),
  ].join("\n");
  return { subject, html, text };
}

const SECURITY_EVENTS: Record<SecurityEvent, { subject: (business: string) => string; line: string }> = {
  newSignIn: {
    subject: (b) => `New sign-in to your ${b} account`,
    line: "Your account was just signed in to from a device or browser we have not seen before.",
  },
  passwordChanged: {
    subject: (b) => `Your ${b} password was changed`,
    line: "The password of your client account was just changed. Your other sessions were signed out.",
  },
  twoFactorEnabled: {
    subject: (b) => `Two-factor authentication is on for your ${b} account`,
    line: "Two-factor authentication was just turned on for your client account.",
  },
  twoFactorDisabled: {
    subject: (b) => `Two-factor authentication is off for your ${b} account`,
    line: "Two-factor authentication was just turned off for your client account.",
  },
  backupCodesRegenerated: {
    subject: (b) => `New backup codes for your ${b} account`,
    line: "New two-factor backup codes were just made for your client account; the old ones no longer work.",
  },
};

/** The security alert (profile switch "Security alerts"): what happened and when, never a secret. */
export function securityAlertEmail({
  business,
  publicUrl,
  name,
  event,
  at,
  timeZone,
}: Common & { event: SecurityEvent; at: Date; timeZone?: TimeZone }): EmailContent {
  const { subject, line } = SECURITY_EVENTS[event];
  const securityUrl = `${publicUrl}/client/profile?tab=security`;
  // In the client's saved timezone (ADR 0521), with its abbreviation: "Feb 28, 2026, 19:30 PST".
  const when = `When: ${formatMoment(at, timeZone)}.`;
  const ifNotYou = `If this wasn't you, change your password: ${securityUrl}`;
  const html = renderEmailHtml(
    <EmailLayout business={business} publicUrl={publicUrl} preview={line}>
      <h1 style={{ fontSize: "20px", margin: "0 0 16px" }}>Security alert</h1>
      <p style={{ margin: "0 0 12px" }}>
        Hello {name}, {line}
      </p>
      <p style={{ margin: "0 0 16px" }}>{when}</p>
      <p style={{ margin: "0 0 16px" }}>
        If this wasn't you, change your password: <a href={securityUrl}>{securityUrl}</a>
      </p>
      <p style={{ margin: "20px 0 0", color: "#64748b", fontSize: "13px" }}>
        You get these emails because Security alerts are on in your profile's Notifications.
      </p>
    </EmailLayout>,
  );
  const text = [
    `Hello ${name},`,
    "",
    line,
    when,
    "",
    ifNotYou,
    "",
    "You get these emails because Security alerts are on in your profile's Notifications.",
    "",
    textFooter(business, publicUrl),
  ].join("\n");
  return { subject: subject(business.name), html, text };
}
