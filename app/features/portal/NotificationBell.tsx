/**
 * The header bell (client-portal.md, Notification panel): the latest notifications, a click marks one
 * read, "Mark all read", a remove button on each, the unread badge ("9+" above nine) and the empty
 * text 'No notifications yet'. A <details> disclosure, so it opens and works without JavaScript too;
 * every action is a fetcher form posting to /client/notifications.
 */

import { useEffect, useRef } from "react";
import { useFetcher, useLocation } from "react-router";
import { cardClass } from "~/ui/card-class";
import { formatDate } from "~/ui/format";
import { Icon } from "~/ui/icon";
import { useTimeZone } from "~/ui/time-zone";
import { useHydrated } from "~/ui/use-hydrated";
import { badgeText } from "./listing";

export interface BellItem {
  id: string;
  title: string;
  message: string;
  type: string;
  read: boolean;
  createdAt: string;
}

const ACTION = "/client/notifications";

/** Without JavaScript the action redirects back to the page; with it the fetcher stays on the page. */
function Back() {
  const hydrated = useHydrated();
  const { pathname, search } = useLocation();
  return hydrated ? null : <input type="hidden" name="back" value={`${pathname}${search}`} />;
}

function NotificationItem({ item }: { item: BellItem }) {
  const tz = useTimeZone();
  const read = useFetcher();
  const remove = useFetcher();
  if (remove.state !== "idle") return null;
  const isRead = item.read || read.state !== "idle";
  return (
    <li className="flex items-start gap-2 border-b border-slate-100 px-3 py-2 last:border-b-0">
      <read.Form method="post" action={ACTION} className="min-w-0 flex-1">
        <input type="hidden" name="intent" value="read" />
        <input type="hidden" name="id" value={item.id} />
        <Back />
        <button
          type="submit"
          className="w-full rounded p-1 text-left hover:bg-slate-50"
          aria-label={`${item.title}: ${item.message}${isRead ? "" : " (unread, mark read)"}`}
        >
          <span className="flex items-center gap-2">
            {!isRead && <span aria-hidden="true" className="size-2 shrink-0 rounded-full bg-brand-600" />}
            <span className={`text-sm ${isRead ? "font-medium text-slate-700" : "font-semibold text-ink"}`}>
              {item.title}
            </span>
          </span>
          <span className="mt-0.5 block text-sm text-slate-700">{item.message}</span>
          <span className="mt-0.5 block text-xs text-slate-600">
            {formatDate(item.createdAt, "medium", tz)}
          </span>
        </button>
      </read.Form>
      <remove.Form method="post" action={ACTION}>
        <input type="hidden" name="intent" value="remove" />
        <input type="hidden" name="id" value={item.id} />
        <Back />
        <button
          type="submit"
          className="rounded p-1.5 text-slate-600 hover:bg-slate-100 hover:text-red-700"
          aria-label={`Remove notification: ${item.title}`}
        >
          <Icon name="trash" className="size-4" />
        </button>
      </remove.Form>
    </li>
  );
}

export function NotificationBell({ items, unread }: { items: BellItem[]; unread: number }) {
  const readAll = useFetcher();
  const details = useRef<HTMLDetailsElement>(null);
  const shownUnread = readAll.state !== "idle" ? 0 : unread;
  const badge = badgeText(shownUnread);

  // Escape and a click outside close the panel.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape" && details.current?.open) {
        details.current.open = false;
        details.current.querySelector("summary")?.focus();
      }
    };
    const onClick = (e: MouseEvent) => {
      if (details.current?.open && !details.current.contains(e.target as Node)) details.current.open = false;
    };
    document.addEventListener("keydown", onKey);
    document.addEventListener("click", onClick);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("click", onClick);
    };
  }, []);

  return (
    <details ref={details} className="relative">
      <summary
        className="relative flex cursor-pointer list-none items-center rounded-full p-2 text-slate-700 hover:bg-slate-100 [&::-webkit-details-marker]:hidden"
        aria-label={shownUnread ? `Notifications, ${shownUnread} unread` : "Notifications"}
      >
        <Icon name="bell" className="size-5" />
        {badge && (
          <span
            aria-hidden="true"
            data-testid="notification-badge"
            className="absolute -top-0.5 -right-0.5 min-w-5 rounded-full bg-red-700 px-1 text-center text-xs font-bold leading-5 text-white"
          >
            {badge}
          </span>
        )}
      </summary>
      <div className={cardClass("absolute right-0 z-40 mt-2 w-80 max-w-[calc(100vw-2rem)] shadow-xl")}>
        <div className="flex items-center justify-between border-b border-slate-200 px-3 py-2">
          <h2 className="text-sm font-bold">Notifications</h2>
          {shownUnread > 0 && (
            <readAll.Form method="post" action={ACTION}>
              <input type="hidden" name="intent" value="read-all" />
              <Back />
              <button type="submit" className="text-sm font-semibold text-brand-700 hover:underline">
                Mark all read
              </button>
            </readAll.Form>
          )}
        </div>
        {items.length === 0 ? (
          <p className="px-3 py-6 text-center text-sm text-slate-600">No notifications yet</p>
        ) : (
          <ul className="max-h-96 overflow-y-auto">
            {items.map((item) => (
              <NotificationItem
                key={item.id}
                item={{ ...item, read: item.read || readAll.state !== "idle" }}
              />
            ))}
          </ul>
        )}
      </div>
    </details>
  );
}
