/**
 * One notification as the bell and the notifications page show it (ADR 0515): a link to its object
 * that marks it read as it is followed, the time it came in the account's zone, and its forms (mark
 * read, remove, mark all read) posting to the side's notifications page. The fetchers are keyed by the
 * notification, so the bell and the page show the same state while a change is on its way.
 */
import { Link, useFetcher, useLocation } from "react-router";
import { formatMoment } from "~/ui/format";
import { Icon } from "~/ui/icon";
import { useTimeZone } from "~/ui/time-zone";
import { useHydrated } from "~/ui/use-hydrated";

export interface BellItem {
  id: string;
  title: string;
  message: string;
  type: string;
  /** Its object's page; a notice with none (raised before notices were links) leads to the list. */
  href: string | null;
  read: boolean;
  createdAt: string;
}

const readAllKey = (base: string) => `notices-read-all:${base}`;

export function useNotice(item: BellItem, base: string) {
  const read = useFetcher({ key: `notice-read:${item.id}` });
  const remove = useFetcher({ key: `notice-remove:${item.id}` });
  const readingAll = useFetcher({ key: readAllKey(base) }).state !== "idle";
  return {
    item,
    base,
    read,
    remove,
    removed: remove.state !== "idle",
    isRead: item.read || read.state !== "idle" || readingAll,
    href: item.href ?? base,
  };
}

export type Notice = ReturnType<typeof useNotice>;

/** Without JavaScript the action redirects back to the page; with it the fetcher stays on the page. */
function Back() {
  const hydrated = useHydrated();
  const { pathname, search } = useLocation();
  return hydrated ? null : <input type="hidden" name="back" value={`${pathname}${search}`} />;
}

/** The notice's title, message and time, as a link to its object. */
export function NoticeLink({
  notice,
  className,
  onFollow,
}: {
  notice: Notice;
  className?: string;
  onFollow?: (link: HTMLAnchorElement) => void;
}) {
  const tz = useTimeZone();
  const { item, isRead } = notice;
  return (
    <Link
      to={notice.href}
      className={className}
      data-notice={item.id}
      onClick={(e) => {
        if (!isRead)
          notice.read.submit({ intent: "read", id: item.id }, { method: "post", action: notice.base });
        onFollow?.(e.currentTarget);
      }}
    >
      <span className="flex items-center gap-2">
        {!isRead && <span aria-hidden="true" className="size-2 shrink-0 rounded-full bg-brand-600" />}
        <span className={`text-sm ${isRead ? "font-medium text-slate-700" : "font-semibold text-ink"}`}>
          {item.title}
        </span>
        {!isRead && <span className="sr-only">(unread)</span>}
      </span>
      <span className="mt-0.5 block text-sm text-slate-700">{item.message}</span>
      <time dateTime={item.createdAt} className="mt-0.5 block text-xs text-slate-600">
        {formatMoment(item.createdAt, tz)}
      </time>
    </Link>
  );
}

const iconButton = "rounded p-1.5 text-slate-600 hover:bg-slate-100";

/** Mark read (shown while unread) or remove one notice. */
export function NoticeForm({ notice, intent }: { notice: Notice; intent: "read" | "remove" }) {
  const { item } = notice;
  if (intent === "read" && notice.isRead) return null;
  const fetcher = intent === "read" ? notice.read : notice.remove;
  return (
    <fetcher.Form method="post" action={notice.base}>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="id" value={item.id} />
      <Back />
      {intent === "read" ? (
        <button
          type="submit"
          className={`${iconButton} hover:text-brand-700`}
          aria-label={`Mark read: ${item.title}`}
        >
          <Icon name="check" className="size-4" />
        </button>
      ) : (
        <button
          type="submit"
          className={`${iconButton} hover:text-red-700`}
          aria-label={`Remove notification: ${item.title}`}
        >
          <Icon name="trash" className="size-4" />
        </button>
      )}
    </fetcher.Form>
  );
}

/** "Mark all read", for the bell and the page of the side whose notifications page is `base`. */
export function ReadAllForm({ base }: { base: string }) {
  const readAll = useFetcher({ key: readAllKey(base) });
  if (readAll.state !== "idle") return null;
  return (
    <readAll.Form method="post" action={base}>
      <input type="hidden" name="intent" value="read-all" />
      <Back />
      <button type="submit" className="text-sm font-semibold text-brand-700 hover:underline">
        Mark all read
      </button>
    </readAll.Form>
  );
}

/** Whether "Mark all read" of `base` is on its way (the badge shows none meanwhile). */
export function useReadingAll(base: string): boolean {
  return useFetcher({ key: readAllKey(base) }).state !== "idle";
}
