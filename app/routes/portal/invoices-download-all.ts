import { requireClient } from "~/features/accounts/session.server";
import { invoicesZipStream, renderBasicInvoicePdf } from "~/features/invoices/download-all.server";
import type { Route } from "./+types/invoices-download-all";

/** "A Download All button exists": one zip with a PDF of each of the signed-in client's invoices. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireClient(request, context);
  const { runtime } = context;
  const businessName = runtime.config.business.name;
  const stream = invoicesZipStream(
    runtime.database.db,
    user.id,
    (doc) => renderBasicInvoicePdf(doc, businessName),
    (error) => context.logger.error({ err: error }, "download all: zip failed"),
  );
  const day = new Date().toISOString().slice(0, 10);
  return new Response(stream, {
    headers: {
      "Content-Type": "application/zip",
      "Content-Disposition": `attachment; filename="invoices-${day}.zip"`,
      "Cache-Control": "private, no-store",
    },
  });
}
