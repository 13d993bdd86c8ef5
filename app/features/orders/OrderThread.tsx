/**
 * An order's conversation as either side reads it (ADR 0512): messages oldest first, their text as
 * plain text with web addresses as safe links, their files as downloads with name and size.
 */

import { cn } from "~/ui/cn";
import { formatMoment } from "~/ui/format";
import { Icon } from "~/ui/icon";
import { LinkifiedText } from "~/ui/linkified-text";
import { useTimeZone } from "~/ui/time-zone";
import { formatFileSize } from "./attachments";
import type { ThreadMessage } from "./conversation.server";

export function OrderThread({
  messages,
  mineLabel,
  theirsLabel,
  fileHref,
  empty,
}: {
  messages: readonly ThreadMessage[];
  /** Who the viewer's side is ("You"), and the other side ("Portico", the client's name). */
  mineLabel: string;
  theirsLabel: string;
  /** Where an attachment downloads from on this side. */
  fileHref: (attachmentId: string) => string;
  empty: string;
}) {
  const tz = useTimeZone();
  if (messages.length === 0) return <p className="text-slate-600">{empty}</p>;
  return (
    <ol aria-label="Messages" className="space-y-4">
      {messages.map((m) => (
        <li
          key={m.id}
          data-message-id={m.id}
          data-author={m.authorRole}
          className={cn(
            "min-w-0 rounded-xl border p-4",
            m.mine ? "border-brand-100 bg-brand-50 sm:ml-8" : "border-slate-200 bg-white sm:mr-8",
          )}
        >
          <p className="flex flex-wrap items-baseline gap-x-2 text-sm text-slate-600">
            <span className="font-semibold text-ink">{m.mine ? mineLabel : theirsLabel}</span>
            <time dateTime={new Date(m.createdAt).toISOString()}>{formatMoment(m.createdAt, tz)}</time>
            {m.mine && m.readAt && <span>· Read</span>}
          </p>
          <p className="mt-2 whitespace-pre-wrap text-ink [overflow-wrap:anywhere]">
            <LinkifiedText text={m.body} />
          </p>
          {m.attachments.length > 0 && (
            <ul aria-label="Attachments" className="mt-3 space-y-1">
              {m.attachments.map((a) => (
                <li key={a.id} className="flex min-w-0 items-center gap-2 text-sm">
                  <Icon name="paperclip" className="size-4 shrink-0 text-slate-500" />
                  <a
                    href={fileHref(a.id)}
                    download={a.filename}
                    data-attachment-id={a.id}
                    className="min-w-0 font-medium text-brand-700 underline [overflow-wrap:anywhere]"
                  >
                    {a.filename}
                  </a>
                  <span className="shrink-0 text-slate-600">({formatFileSize(a.size)})</span>
                </li>
              ))}
            </ul>
          )}
        </li>
      ))}
    </ol>
  );
}
