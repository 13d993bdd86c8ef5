/**
 * The header bell (client-portal.md, Notification panel): the latest notifications, each a link to its
 * object (an order, invoice, quote or credit note: ADR 0515) that marks it read as it is followed, the
 * time it came, "Mark all read", a remove button on each, the unread badge ("9+" above nine), the empty
 * text 'No notifications yet' and "See all notifications", the page that keeps the older ones. A
 * <details> disclosure, so it opens and works without JavaScript too (there each unread notice has a
 * "Mark read" button); every action is a fetcher form posting to the side's notifications page
 * (`base`: /client/notifications or /admin/notifications).
 */

import { useEffect, useRef } from "react";
import { Link } from "react-router";
import { cardClass } from "~/ui/card-class";
import { Icon } from "~/ui/icon";
import { badgeText } from "./listing";
import { type BellItem, NoticeForm, NoticeLink, ReadAllForm, useNotice, useReadingAll } from "./notice";

export type { BellItem } from "./notice";

function NotificationItem({ item, base }: { item: BellItem; base: string }) {
  const notice = useNotice(item, base);
  if (notice.removed) return null;
  return (
    <li className="flex items-start gap-1 border-b border-slate-100 px-3 py-2 last:border-b-0">
      <NoticeLink
        notice={notice}
        className="min-w-0 flex-1 rounded p-1 hover:bg-slate-50"
        // The panel closes as the link is followed.
        onFollow={(link) => link.closest("details")?.removeAttribute("open")}
      />
      <NoticeForm notice={notice} intent="read" />
      <NoticeForm notice={notice} intent="remove" />
    </li>
  );
}

export function NotificationBell({
  items,
  unread,
  base = "/client/notifications",
}: {
  items: BellItem[];
  unread: number;
  /** The side's notifications page: its "See all" link and the action every form posts to. */
  base?: string;
}) {
  const details = useRef<HTMLDetailsElement>(null);
  const shownUnread = useReadingAll(base) ? 0 : unread;

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
      <BellSummary unread={shownUnread} />
      <div className={cardClass("absolute right-0 z-40 mt-2 w-80 max-w-[calc(100vw-2rem)] shadow-xl")}>
        <div className="flex items-center justify-between border-b border-slate-200 px-3 py-2">
          <h2 className="text-sm font-bold">Notifications</h2>
          {shownUnread > 0 && <ReadAllForm base={base} />}
        </div>
        {items.length === 0 ? (
          <p className="px-3 py-6 text-center text-sm text-slate-600">No notifications yet</p>
        ) : (
          <ul className="max-h-96 overflow-y-auto">
            {items.map((item) => (
              <NotificationItem key={item.id} item={item} base={base} />
            ))}
          </ul>
        )}
        <p className="border-t border-slate-200 px-3 py-2 text-center">
          <Link
            to={base}
            className="text-sm font-semibold text-brand-700 hover:underline"
            onClick={(e) => e.currentTarget.closest("details")?.removeAttribute("open")}
          >
            See all notifications
          </Link>
        </p>
      </div>
    </details>
  );
}

function BellSummary({ unread }: { unread: number }) {
  const badge = badgeText(unread);
  return (
    <summary
      className="relative flex cursor-pointer list-none items-center rounded-full p-2 text-slate-700 hover:bg-slate-100 [&::-webkit-details-marker]:hidden"
      aria-label={unread ? `Notifications, ${unread} unread` : "Notifications"}
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
  );
}
