/**
 * The data export's deps, built from a request's load context by its routes (the client's own
 * "Download my data" and the owner's "Export client data"): the database, the business whose invoices
 * are rendered, and the logger for a zip that fails while streaming.
 */
import type { AppLoadContext } from "react-router";
import { renderInvoicePdf } from "~/features/invoices/invoice-pdf.server";
import type { DataExportDeps } from "./data-export.server";

export function dataExportDeps(context: AppLoadContext): DataExportDeps {
  const { runtime } = context;
  return {
    db: runtime.database.db,
    business: runtime.config.business,
    render: (doc) => renderInvoicePdf(doc, runtime.config.business),
    onError: (error) => context.logger.error({ err: error }, "data export: zip failed"),
  };
}
