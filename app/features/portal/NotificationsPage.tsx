/**
 * The notifications page behind the bell's "See all" (ADR 0515), the client's and the owner's: every
 * notification kept, newest first, paged at the list kit's page size, each a link to its object with
 * its time, mark read, remove, and "Mark all read".
 */
import type { PageInfo } from "~/features/lists/listing";
import { cardClass } from "~/ui/card-class";
import { EmptyState } from "~/ui/list";
import { Page } from "~/ui/page";
import { ListPager } from "./components";
import { type BellItem, NoticeForm, NoticeLink, ReadAllForm, useNotice, useReadingAll } from "./notice";

function NoticeRow({ item, base }: { item: BellItem; base: string }) {
  const notice = useNotice(item, base);
  if (notice.removed) return null;
  return (
    <li className="flex items-start gap-2 border-b border-slate-100 px-3 py-3 last:border-b-0 sm:px-4">
      <NoticeLink notice={notice} className="min-w-0 flex-1 rounded p-1 break-words hover:bg-slate-50" />
      <NoticeForm notice={notice} intent="read" />
      <NoticeForm notice={notice} intent="remove" />
    </li>
  );
}

export function NotificationsPage({
  data,
  base,
}: {
  data: { notifications: BellItem[]; unread: number; paging: PageInfo };
  /** This page's path (/client/notifications or /admin/notifications): its forms post here. */
  base: string;
}) {
  const unread = useReadingAll(base) ? 0 : data.unread;
  return (
    <Page title="Notifications" actions={unread > 0 ? <ReadAllForm base={base} /> : null}>
      <section aria-label="All notifications" className={cardClass("overflow-hidden")}>
        {data.notifications.length === 0 ? (
          <EmptyState title="No notifications yet" />
        ) : (
          <>
            <ul>
              {data.notifications.map((item) => (
                <NoticeRow key={item.id} item={item} base={base} />
              ))}
            </ul>
            <ListPager
              paging={data.paging}
              pathname={base}
              query={{ q: "", status: "all" }}
              noun="notifications"
            />
          </>
        )}
      </section>
    </Page>
  );
}
