/**
 * The conversation on the owner's order page: the thread (oldest first, files as download links, their
 * sizes as the client's page writes them: orders/attachments.ts) and the reply box with attachments. The reply is a plain multipart form, so it works before the page's
 * scripts run; once they do, a file that is too large is refused in the browser before it is sent.
 */

import type { ChangeEvent } from "react";
import { Form } from "react-router";
import { ORDER_MESSAGE_MAX_CHARS } from "~/db/schema";
import {
  ACCEPT_ATTACHMENTS,
  ALLOWED_KINDS_TEXT,
  ATTACHMENT_MAX_BYTES,
  ATTACHMENT_MESSAGES,
  formatFileSize,
  MAX_ATTACHMENTS_PER_MESSAGE,
} from "~/features/orders/attachments";
import type { Thread } from "~/features/orders/conversation.server";
import { Button } from "~/ui/button";
import { cn } from "~/ui/cn";
import { inputClass } from "~/ui/field";
import type { FieldErrors } from "~/ui/form";
import { formatDateTime } from "~/ui/format";
import { Icon } from "~/ui/icon";

/** The download address of a message's file on the owner's side. */
export const adminFilePath = (orderId: string, attachmentId: string) =>
  `/admin/orders/${orderId}/files/${attachmentId}`;

export function ThreadList({ thread, clientName }: { thread: Thread; clientName: string }) {
  if (thread.messages.length === 0) {
    return <p className="text-sm text-slate-600">No messages yet. Write the first one below.</p>;
  }
  return (
    <ol className="space-y-3" aria-label="Messages">
      {thread.messages.map((m) => (
        <li
          key={m.id}
          data-author={m.authorRole}
          className={cn(
            "rounded-lg border p-3 text-sm",
            m.mine ? "border-brand-100 bg-brand-50 sm:ml-8" : "border-slate-200 bg-white sm:mr-8",
          )}
        >
          <p className="flex flex-wrap items-baseline justify-between gap-x-3 text-slate-600">
            <span className="font-semibold text-ink">{m.mine ? "Owner" : clientName}</span>
            <time dateTime={new Date(m.createdAt).toISOString()}>{formatDateTime(m.createdAt)}</time>
          </p>
          <p className="mt-1 whitespace-pre-wrap wrap-anywhere text-ink">{m.body}</p>
          {m.attachments.length > 0 && (
            <ul className="mt-2 space-y-1" aria-label="Attached files">
              {m.attachments.map((a) => (
                <li key={a.id} className="flex min-w-0 items-center gap-2">
                  <Icon name="paperclip" className="size-4 shrink-0 text-slate-500" />
                  <a
                    className="min-w-0 wrap-anywhere text-brand-700 underline"
                    href={adminFilePath(thread.orderId, a.id)}
                    download={a.filename}
                  >
                    {a.filename}
                  </a>
                  <span className="shrink-0 text-slate-600">({formatFileSize(a.size)})</span>
                </li>
              ))}
            </ul>
          )}
          {m.mine && (
            <p className="mt-1 text-xs text-slate-600">
              {m.readAt ? `Read by the client ${formatDateTime(m.readAt)}` : "Not read by the client yet"}
            </p>
          )}
        </li>
      ))}
    </ol>
  );
}

const FILES_HINT = `Optional: up to ${MAX_ATTACHMENTS_PER_MESSAGE} files of ${ATTACHMENT_MAX_BYTES / (1024 * 1024)} MB each (${ALLOWED_KINDS_TEXT}).`;

/** In the browser, before sending: too many files, or one too large, is said on the input at once. */
function checkChosenFiles(event: ChangeEvent<HTMLInputElement>) {
  const input = event.currentTarget;
  const files = [...(input.files ?? [])];
  const large = files.find((f) => f.size > ATTACHMENT_MAX_BYTES);
  const problem =
    files.length > MAX_ATTACHMENTS_PER_MESSAGE
      ? ATTACHMENT_MESSAGES.tooMany
      : large
        ? ATTACHMENT_MESSAGES.tooLarge(large.name)
        : "";
  input.setCustomValidity(problem);
  if (problem) input.reportValidity();
}

/** The reply box: text (1 to 10,000 characters) and files, sent as `intent=message`. */
export function ReplyForm({ errors, resetKey }: { errors: FieldErrors; resetKey: string }) {
  return (
    // A sent reply changes the key, so the emptied fields are new ones (they are uncontrolled).
    <Form method="post" encType="multipart/form-data" className="space-y-4" key={resetKey}>
      <input type="hidden" name="intent" value="message" />
      <div>
        <label htmlFor="reply-body" className="block text-sm font-medium text-slate-800">
          Reply to the client
        </label>
        <textarea
          id="reply-body"
          name="body"
          rows={5}
          required
          maxLength={ORDER_MESSAGE_MAX_CHARS}
          aria-invalid={errors.body ? true : undefined}
          aria-describedby={errors.body ? "reply-body-error" : undefined}
          className={cn(inputClass, "mt-1 text-sm", errors.body ? "border-red-600" : "border-slate-300")}
        />
        {errors.body && (
          <p id="reply-body-error" className="mt-1 text-sm text-red-700">
            {errors.body}
          </p>
        )}
      </div>
      <div>
        <label htmlFor="reply-files" className="block text-sm font-medium text-slate-800">
          Attach files
        </label>
        <input
          id="reply-files"
          name="files"
          type="file"
          multiple
          accept={ACCEPT_ATTACHMENTS}
          onChange={checkChosenFiles}
          aria-invalid={errors.files ? true : undefined}
          aria-describedby={errors.files ? "reply-files-hint reply-files-error" : "reply-files-hint"}
          className="mt-1 block w-full max-w-full text-sm text-slate-700 file:mr-3 file:rounded-lg file:border file:border-slate-300 file:bg-white file:px-3 file:py-1.5 file:text-sm file:font-semibold"
        />
        <p id="reply-files-hint" className="mt-1 text-sm text-slate-600">
          {FILES_HINT}
        </p>
        {errors.files && (
          <p id="reply-files-error" className="mt-1 text-sm text-red-700">
            {errors.files}
          </p>
        )}
      </div>
      <Button type="submit">Send reply</Button>
    </Form>
  );
}
