// Not in the spec: one captured email. Its HTML is shown in a sandboxed iframe (srcdoc, no scripts,
// opaque origin, under this page's CSP); links open in a new tab.
import { data, Link } from "react-router";
import { isUuid } from "~/features/ids/ids";
import { requireDevInbox } from "~/features/mail/dev-inbox.server";
import { formatAddress, mailbox, readStoredAddress } from "~/features/mail/email";
import { findEmail } from "~/features/mail/outbox.server";
import { Container } from "~/ui/container";
import type { Route } from "./+types/mail-message";

export async function loader({ params, context }: Route.LoaderArgs) {
  requireDevInbox(context);
  const id = params.emailId;
  const email = isUuid(id) ? await findEmail(context.runtime.database.db, id) : null;
  if (!email) throw data("Not Found", { status: 404 });
  const replyTo = readStoredAddress(email.replyTo);
  return {
    email: {
      subject: email.subject,
      to: formatAddress(mailbox(email.toAddress, email.toName)),
      replyTo: replyTo ? formatAddress(replyTo) : null,
      status: email.status,
      kind: email.kind,
      text: email.text,
      // Links leave the sandbox into a new tab instead of navigating the frame.
      html: email.html.replace(/<head>/i, '<head><base target="_blank">'),
    },
  };
}

export const meta: Route.MetaFunction = ({ data }) => [
  { title: data ? `Mail: ${data.email.subject}` : "Mail" },
  { name: "robots", content: "noindex" },
];

export default function DevMailMessage({ loaderData: { email } }: Route.ComponentProps) {
  return (
    <Container className="py-12">
      <Link to="/dev/mail" className="text-sm font-semibold text-brand-700 underline">
        All emails
      </Link>
      <h1 className="mt-4 text-2xl font-bold">{email.subject}</h1>
      <dl className="mt-4 grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm wrap-anywhere">
        <dt className="text-slate-500">To</dt>
        <dd>{email.to}</dd>
        {email.replyTo && (
          <>
            <dt className="text-slate-500">Reply-To</dt>
            <dd>{email.replyTo}</dd>
          </>
        )}
        <dt className="text-slate-500">Status</dt>
        <dd>
          {email.status} · {email.kind}
        </dd>
      </dl>
      <iframe
        title="HTML version"
        srcDoc={email.html}
        sandbox="allow-popups allow-popups-to-escape-sandbox"
        className="mt-6 h-[640px] w-full rounded-lg border border-slate-200"
      />
      <h2 className="mt-8 text-lg font-semibold">Text version</h2>
      <pre className="mt-2 overflow-x-auto whitespace-pre-wrap rounded-lg bg-slate-50 p-4 text-sm">
        {email.text}
      </pre>
    </Container>
  );
}
