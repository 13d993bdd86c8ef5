import { requireClient } from "~/features/accounts/session.server";
import { invoicesZipStream } from "~/features/invoices/download-all.server";
import { renderInvoicePdf } from "~/features/invoices/invoice-pdf.server";
import type { Route } from "./+types/invoices-download-all";

/** "A Download All button exists": one zip with a PDF of each of the signed-in client's invoices. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireClient(request, context);
  const { runtime } = context;
  const stream = invoicesZipStream(
    runtime.database.db,
    user.id,
    (doc) => renderInvoicePdf(doc, runtime.config.business),
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
