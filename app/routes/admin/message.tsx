import { Form, Link } from "react-router";
import { adminDeps, idParam, requireAdmin } from "~/features/admin/route-helpers.server";
import { DefinitionList, Outcome } from "~/features/admin/ui";
import { getMessage, messagePageAction } from "~/features/contact/contact-inbox.server";
import { pageTitle } from "~/features/site/meta";
import { StatusBadge } from "~/ui/badge";
import { Button } from "~/ui/button";
import { Card } from "~/ui/card";
import { TextField } from "~/ui/field";
import { actionResponse } from "~/ui/form";
import { formatDateTime } from "~/ui/format";
import { Page } from "~/ui/page";
import type { Route } from "./+types/message";

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: pageTitle("Message · Back Office", matches) },
];

/** Reading the page shows the message; marking it read is an explicit action (reading never writes). */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const message = await getMessage(context.runtime.database.db, idParam(params.messageId));
  if (!message) throw new Response("Not Found", { status: 404 });
  return { message };
}

/** Mark read or unread, or the reply by email (the feature wakes the outbox once it is queued). */
export async function action({ request, context, params }: Route.ActionArgs) {
  const deps = await adminDeps(request, context);
  const id = idParam(params.messageId);
  return actionResponse(await messagePageAction(deps, id, Object.fromEntries(await request.formData())));
}

export default function AdminMessage({ loaderData: { message: m }, actionData }: Route.ComponentProps) {
  return (
    <Page
      title={m.subject}
      actions={
        <Link to="/admin/messages" className="text-brand-700 underline">
          All messages
        </Link>
      }
    >
      <Outcome result={actionData} />
      <Card>
        <DefinitionList
          items={[
            ["From", `${m.name} <${m.email}>`],
            ["Received", `${formatDateTime(m.createdAt)} (via ${m.source})`],
            ["State", <StatusBadge key="s" status={m.readAt ? "read" : "unread"} />],
          ]}
        />
        <div className="mt-4 whitespace-pre-wrap rounded-lg bg-slate-50 p-4 text-sm">{m.message}</div>
        <Form method="post" className="mt-4">
          <input type="hidden" name="intent" value={m.readAt ? "unread" : "read"} />
          <Button type="submit" variant="secondary">
            {m.readAt ? "Mark unread" : "Mark read"}
          </Button>
        </Form>
      </Card>
      <Card title="Reply by email">
        <Form method="post" className="space-y-4">
          <input type="hidden" name="intent" value="reply" />
          <TextField
            label="Subject"
            name="subject"
            defaultValue={`Re: ${m.subject}`}
            required
            maxLength={200}
          />
          <div>
            <label htmlFor="reply-body" className="block text-sm font-medium text-slate-800">
              Your reply
            </label>
            <textarea
              id="reply-body"
              name="body"
              rows={8}
              required
              maxLength={10_000}
              className="mt-1 block w-full rounded-lg border border-slate-300 px-3 py-2 text-sm"
            />
          </div>
          <Button type="submit">Send reply</Button>
        </Form>
      </Card>
    </Page>
  );
}
