/**
 * The back office's inbox of clients' messages on their orders (ADR 0512), beside the contact messages:
 * the ones no admin has read yet, newest first, each linking to its order's page, where reading them
 * marks them read.
 */
import { Link } from "react-router";
import type { UnreadClientMessage } from "~/features/orders/conversation.server";
import { Card } from "~/ui/card";
import { formatDateTime } from "~/ui/format";
import { DataTable, Td } from "~/ui/table";
import { ClientCell } from "./ui";

export function OrderMessagesInbox({
  messages,
  total,
}: {
  messages: readonly UnreadClientMessage[];
  total: number;
}) {
  return (
    <Card title={`Unread messages on orders (${total})`} className="overflow-hidden">
      {messages.length === 0 ? (
        <p className="text-sm text-slate-600">No unread messages from clients on their orders.</p>
      ) : (
        <>
          <DataTable caption="Unread messages on orders" head={["Received", "From", "Order", "Message"]}>
            {messages.map((m) => (
              <tr key={m.messageId} className="font-semibold" data-order-message={m.messageId}>
                <Td className="whitespace-nowrap">{formatDateTime(m.createdAt)}</Td>
                <ClientCell name={m.clientName} email={m.clientEmail} />
                <Td>
                  <Link to={`/admin/orders/${m.orderId}`} className="text-brand-700 underline">
                    {m.serviceName}
                  </Link>
                </Td>
                <Td className="font-normal wrap-anywhere">
                  {m.preview}
                  {m.attachmentCount > 0 && (
                    <span className="block text-slate-600">
                      {m.attachmentCount} {m.attachmentCount === 1 ? "file" : "files"} attached
                    </span>
                  )}
                </Td>
              </tr>
            ))}
          </DataTable>
          {total > messages.length && (
            <p className="mt-3 text-sm text-slate-600">
              The {messages.length} newest are shown; {total - messages.length} more are unread.
            </p>
          )}
        </>
      )}
    </Card>
  );
}
