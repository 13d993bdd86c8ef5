import { requireAdmin } from "~/features/admin/route-helpers.server";
import { getAttachment } from "~/features/orders/conversation.server";
import type { Route } from "./+types/order-file";

/**
 * A file of an order's conversation, for the owner: always a download, with the headers getAttachment
 * gives (nosniff, no caching by shared caches, a sandboxing CSP). 404 for anyone but an admin, and for a
 * file that is not on this order's conversation (or an unknown or malformed id).
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const admin = await requireAdmin(request, context);
  const file = await getAttachment(
    { db: context.runtime.database.db },
    { id: admin.id, role: "admin" },
    params.attachmentId,
  );
  if (!file || file.orderId !== params.orderId) throw new Response("Not Found", { status: 404 });
  return new Response(new Uint8Array(file.bytes), { headers: file.headers });
}
