import { requireClient } from "~/features/accounts/session.server";
import { getAttachment } from "~/features/orders/conversation.server";
import type { Route } from "./+types/order-file";

const notFound = () =>
  new Response("Attachment Not Found", {
    status: 404,
    headers: { "Content-Type": "text/plain", "Cache-Control": "private, no-store" },
  });

/**
 * A file of a message on the signed-in client's own order, as a download with its headers (always an
 * attachment, nosniff, no caching, a sandboxing CSP). Another client's file, a file of another order
 * than the address names, or a malformed id: 404.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { user } = await requireClient(request, context);
  const file = await getAttachment(
    { db: context.runtime.database.db },
    { id: user.id, role: "client" },
    params.attachmentId,
  );
  if (!file || file.orderId !== params.orderId) return notFound();
  return new Response(new Uint8Array(file.bytes), { headers: file.headers });
}
