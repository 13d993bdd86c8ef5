// Not in the spec: the captured-mail inbox (docs/decisions/0300-mail-outbox.md).
import { Link } from "react-router";
import { requireDevInbox } from "~/features/mail/dev-inbox.server";
import { formatAddress, mailbox } from "~/features/mail/email";
import { listRecentEmails } from "~/features/mail/outbox.server";
import { Container } from "~/ui/container";
import type { Route } from "./+types/mail";

export async function loader({ context }: Route.LoaderArgs) {
  requireDevInbox(context);
  const { config, database } = context.runtime;
  const emails = await listRecentEmails(database.db);
  return {
    transport: config.mail.smtpUrl ? "SMTP" : "captured (no SMTP_URL)",
    emails: emails.map((e) => ({
      id: e.id,
      kind: e.kind,
      to: formatAddress(mailbox(e.toAddress, e.toName)),
      subject: e.subject,
      status: e.status,
      attempts: e.attempts,
      lastError: e.lastError,
      createdAt: e.createdAt.toISOString(),
    })),
  };
}

export const meta: Route.MetaFunction = () => [
  { title: "Mail outbox" },
  { name: "robots", content: "noindex" },
];

export default function DevMail({ loaderData }: Route.ComponentProps) {
  return (
    <Container className="py-12">
      <h1 className="text-3xl font-bold">Mail outbox</h1>
      <p className="mt-2 text-slate-600">
        The last 100 emails Portico queued. Delivery: {loaderData.transport}.
      </p>
      {loaderData.emails.length === 0 ? (
        <p className="mt-8">No emails yet.</p>
      ) : (
        <div className="relative mt-8 overflow-x-auto">
          <table className="w-full text-left text-sm">
            <thead>
              <tr className="border-b border-slate-200">
                <th className="py-2 pr-4">Queued</th>
                <th className="py-2 pr-4">To</th>
                <th className="py-2 pr-4">Subject</th>
                <th className="py-2 pr-4">Status</th>
              </tr>
            </thead>
            <tbody>
              {loaderData.emails.map((e) => (
                <tr key={e.id} className="border-b border-slate-100 align-top">
                  <td className="py-2 pr-4 whitespace-nowrap">
                    {e.createdAt.replace("T", " ").slice(0, 19)}
                  </td>
                  <td className="py-2 pr-4">{e.to}</td>
                  <td className="py-2 pr-4">
                    <Link to={`/dev/mail/${e.id}`} className="font-semibold text-brand-700 underline">
                      {e.subject}
                    </Link>
                    <div className="text-xs text-slate-500">{e.kind}</div>
                  </td>
                  <td className="py-2 pr-4">
                    {e.status}
                    {e.attempts > 1 && ` (${e.attempts} attempts)`}
                    {e.lastError && <div className="text-xs text-red-700">{e.lastError}</div>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Container>
  );
}
