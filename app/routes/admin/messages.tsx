import { Link } from "react-router";
import { OrderMessagesInbox } from "~/features/admin/OrderMessagesInbox";
import { listQuery, requireAdmin } from "~/features/admin/route-helpers.server";
import { AdminList, ClientCell } from "~/features/admin/ui";
import { messageFilters } from "~/features/contact/contact-inbox";
import { listMessages } from "~/features/contact/contact-inbox.server";
import { listUnreadClientMessages, unreadClientMessageCount } from "~/features/orders/conversation.server";
import { pageTitle } from "~/features/site/meta";
import { StatusBadge } from "~/ui/badge";
import { formatDateTime } from "~/ui/format";
import { Page } from "~/ui/page";
import { Td } from "~/ui/table";
import type { Route } from "./+types/messages";

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: pageTitle("Messages · Back Office", matches) },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const { url, q, page } = listQuery(request);
  const raw = url.searchParams.get("status");
  const filter = messageFilters.find((f) => f === raw) ?? "all";
  const db = context.runtime.database.db;
  const [contact, orderMessages, orderUnread] = await Promise.all([
    listMessages(db, { q, filter, page }),
    listUnreadClientMessages(db, { limit: 50 }),
    unreadClientMessageCount(db),
  ]);
  return { ...contact, q, filter, orderMessages, orderUnread };
}

const readStates = (unread: number) => [
  { value: "all", label: "All" },
  { value: "unread", label: "Unread", count: unread },
  { value: "read", label: "Read" },
];

export default function AdminMessages({ loaderData: d }: Route.ComponentProps) {
  return (
    <Page title="Messages">
      <OrderMessagesInbox messages={d.orderMessages} total={d.orderUnread} />
      <AdminList
        search="Search by name, email or subject"
        filter={{ label: "Read state", current: d.filter, options: readStates(d.unread) }}
        list={d}
        caption="Contact messages"
        head={["Received", "From", "Subject", "Source", "State"]}
        empty="No messages match."
      >
        {d.rows.map((m) => (
          <tr key={m.id} className={m.readAt ? "" : "font-semibold"}>
            <Td>{formatDateTime(m.createdAt)}</Td>
            <ClientCell name={m.name} email={m.email} />
            <Td>
              <Link to={`/admin/messages/${m.id}`} className="text-brand-700 underline">
                {m.subject}
              </Link>
            </Td>
            <Td>{m.source}</Td>
            <Td>
              <StatusBadge status={m.readAt ? "read" : "unread"} />
            </Td>
          </tr>
        ))}
      </AdminList>
    </Page>
  );
}
