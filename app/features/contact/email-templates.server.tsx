/**
 * The two emails a contact message produces: the notification to the owner (reply goes straight to the
 * visitor) and the confirmation to the visitor.
 */
import { type BusinessIdentity, whatsappLink } from "~/features/business/business";
import { EmailButton, EmailLayout, textFooter } from "~/features/mail/EmailLayout";
import type { EmailContent } from "~/features/mail/email";
import { renderEmailHtml } from "~/features/mail/render.server";

export interface ContactEmailProps {
  business: BusinessIdentity;
  publicUrl: string;
  message: {
    name: string;
    email: string;
    subject: string;
    message: string;
    source: string;
    receivedAt: Date;
  };
}

const paragraphs = (text: string) =>
  text.split(/\n{2,}/).map((p, i) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: static paragraphs of one message, never reordered
    <p key={i} style={{ margin: "0 0 12px", whiteSpace: "pre-wrap" }}>
      {p}
    </p>
  ));

export function contactNotificationEmail({
  business,
  publicUrl,
  message: m,
}: ContactEmailProps): EmailContent {
  const subject = `New contact message: ${m.subject}`;
  const when = m.receivedAt.toISOString();
  const html = renderEmailHtml(
    <EmailLayout business={business} publicUrl={publicUrl} preview={`${m.name} wrote: ${m.subject}`}>
      <h1 style={{ fontSize: "20px", margin: "0 0 16px" }}>New contact message</h1>
      <table role="presentation" cellPadding={4} cellSpacing={0} style={{ marginBottom: "16px" }}>
        <tbody>
          <tr>
            <td style={{ color: "#64748b" }}>From</td>
            <td>
              {m.name} &lt;<a href={`mailto:${m.email}`}>{m.email}</a>&gt;
            </td>
          </tr>
          <tr>
            <td style={{ color: "#64748b" }}>Subject</td>
            <td>{m.subject}</td>
          </tr>
          <tr>
            <td style={{ color: "#64748b" }}>Received</td>
            <td>
              {when} (via {m.source})
            </td>
          </tr>
        </tbody>
      </table>
      <div style={{ borderLeft: "3px solid #cbd5e1", paddingLeft: "12px" }}>{paragraphs(m.message)}</div>
      <p style={{ marginTop: "20px" }}>Reply to this email to answer {m.name} directly.</p>
    </EmailLayout>,
  );
  const text = [
    "New contact message",
    "",
    `From: ${m.name} <${m.email}>`,
    `Subject: ${m.subject}`,
    `Received: ${when} (via ${m.source})`,
    "",
    m.message,
    "",
    `Reply to this email to answer ${m.name} directly.`,
    "",
    textFooter(business, publicUrl),
  ].join("\n");
  return { subject, html, text };
}

/**
 * The visitor's confirmation repeats nothing they typed (issue 35, item 5's rule for every public form):
 * anyone can type someone else's address, so a copy of the name, subject or message would let the form
 * send a stranger's text, under this business's name, to any inbox.
 */
export function contactConfirmationEmail({ business, publicUrl }: ContactEmailProps): EmailContent {
  const subject = "We received your message";
  const whatsapp = whatsappLink(business);
  const html = renderEmailHtml(
    <EmailLayout business={business} publicUrl={publicUrl} preview="We'll get back to you within 24 hours.">
      <h1 style={{ fontSize: "20px", margin: "0 0 16px" }}>Thank you for your message!</h1>
      <p style={{ margin: "0 0 12px" }}>
        We received it and will get back to you within 24 hours, at this address. If you did not write to us,
        you can ignore this email.
      </p>
      <p style={{ margin: "0 0 16px" }}>
        Need an answer sooner? Message us on WhatsApp or call {business.phone}.
      </p>
      <EmailButton href={whatsapp}>Chat on WhatsApp</EmailButton>
      <p style={{ margin: "20px 0 0" }}>
        Meanwhile, have a look at <a href={`${publicUrl}/#services`}>our services</a>.
      </p>
    </EmailLayout>,
  );
  const text = [
    "Thank you for your message!",
    "",
    "We received it and will get back to you within 24 hours, at this address. If you did not write to us, you can ignore this email.",
    "",
    `Need an answer sooner? Message us on WhatsApp (${whatsapp}) or call ${business.phone}.`,
    `Our services: ${publicUrl}/#services`,
    "",
    textFooter(business, publicUrl),
  ].join("\n");
  return { subject, html, text };
}
