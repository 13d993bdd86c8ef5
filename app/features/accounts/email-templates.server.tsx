/**
 * The account emails: address verification, welcome (client-portal.md §7, registration_welcome) and
 * password reset.
 */

import type { BusinessIdentity } from "~/features/business/business";
import { EmailButton, EmailLayout, textFooter } from "~/features/mail/EmailLayout";
import type { EmailContent } from "~/features/mail/email";
import { renderEmailHtml } from "~/features/mail/render.server";
import { RESET_LINK_TTL_SECONDS, VERIFICATION_LINK_TTL_SECONDS } from "./auth.server";

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
