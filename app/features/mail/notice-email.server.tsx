/**
 * The emails the back office sends a client: an order's status change, an invoice (resent or paid by
 * hand) and a reply to a contact message. One simple branded layout for all of them.
 */
import type { BusinessIdentity } from "~/features/business/business";
import { EmailButton, EmailLayout, textFooter } from "~/features/mail/EmailLayout";
import type { EmailContent } from "~/features/mail/email";
import { renderEmailHtml } from "~/features/mail/render.server";

export interface NoticeEmail {
  business: BusinessIdentity;
  publicUrl: string;
  subject: string;
  greetingName: string;
  /** The lines of the message, one paragraph each. */
  lines: string[];
  /** A personal note from the owner, shown set apart. */
  note?: string | null;
  /** A button to the relevant page (path on the site). */
  link?: { path: string; label: string } | null;
}

export function noticeEmail(e: NoticeEmail): EmailContent {
  const url = e.link ? `${e.publicUrl}${e.link.path}` : null;
  const html = renderEmailHtml(
    <EmailLayout business={e.business} publicUrl={e.publicUrl} preview={e.lines[0] ?? e.subject}>
      <p style={{ margin: "0 0 12px" }}>Hello {e.greetingName},</p>
      {e.lines.map((line) => (
        <p key={line} style={{ margin: "0 0 12px" }}>
          {line}
        </p>
      ))}
      {e.note && (
        <div style={{ borderLeft: "3px solid #cbd5e1", paddingLeft: "12px", margin: "0 0 16px" }}>
          <p style={{ margin: 0, whiteSpace: "pre-wrap" }}>{e.note}</p>
        </div>
      )}
      {url && e.link && (
        <p style={{ margin: "16px 0" }}>
          <EmailButton href={url}>{e.link.label}</EmailButton>
        </p>
      )}
      <p style={{ margin: "16px 0 0" }}>— {e.business.name}</p>
    </EmailLayout>,
  );
  const text = [
    `Hello ${e.greetingName},`,
    "",
    ...e.lines.flatMap((l) => [l, ""]),
    ...(e.note ? [e.note, ""] : []),
    ...(url && e.link ? [`${e.link.label}: ${url}`, ""] : []),
    `— ${e.business.name}`,
    "",
    textFooter(e.business, e.publicUrl),
  ].join("\n");
  return { subject: e.subject, html, text };
}
