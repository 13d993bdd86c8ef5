/**
 * The route table. It mirrors the route tables of spec/public-site.md and spec/client-portal.md one to
 * one; the few routes the spec does not list (password reset, privacy, health, feeds) are marked.
 */
import { index, layout, type RouteConfig, route } from "@react-router/dev/routes";
import { SERVICE_PAGES } from "./features/catalogue/catalogue";

export default [
  // Public site (public-site.md §2)
  index("routes/site/home.tsx"),
  // The eight service pages: one module, one route per page of the catalogue's list.
  ...SERVICE_PAGES.map(({ slug }) =>
    route(`services/${slug}`, "routes/site/service-page.tsx", { id: `service-page/${slug}` }),
  ),
  route("services/:serviceId", "routes/site/service-redirect.tsx"),
  route("blog/:slug", "routes/site/blog-post.tsx"),
  // Not in the spec (issue 38, ADR 0530): the care plans and their prices.
  route("plans", "routes/site/plans.tsx"),
  // Not in the spec (issue 39, item 6): the free domain check, shown once and never stored.
  route("check", "routes/site/check.tsx"),
  route("privacy", "routes/site/privacy.tsx"),
  route("terms", "routes/site/terms.tsx"),
  // Not in the spec: search-engine and feed-reader files.
  route("sitemap.xml", "routes/feeds/sitemap.ts"),
  route("robots.txt", "routes/feeds/robots.ts"),
  route("rss.xml", "routes/feeds/rss.ts"),

  // Client portal (client-portal.md §2)
  route("client/login", "routes/portal/login.tsx"),
  route("client/register", "routes/portal/register.tsx"),
  route("client/verify-email", "routes/portal/verify-email.tsx"),
  // Not in the spec ("target not shown"): the real password reset behind 'Forgot your password?'.
  route("client/forgot-password", "routes/portal/forgot-password.tsx"),
  route("client/reset-password", "routes/portal/reset-password.tsx"),
  route("client/sign-out", "routes/portal/sign-out.tsx"),
  // Not in the spec (issue 25): where "Delete my account" leads, signed out.
  route("client/account-deleted", "routes/portal/account-deleted.tsx"),
  // Not in the spec: two-factor sign-in (docs/decisions/0702). The code step after the password, and an
  // admin's two-factor settings outside the back office frame (its setup page with ADMIN_REQUIRE_2FA).
  route("client/two-factor", "routes/portal/two-factor.tsx"),
  route("admin/two-factor", "routes/admin/two-factor.tsx"),
  // Visitors may look at the purchase page, and the thank-you page is the public site's after a
  // registration: in the portal's frame for a signed-in client only (issue 37, item 13).
  layout("routes/portal/frame-if-signed-in.tsx", [
    route("client/purchase/:serviceId", "routes/portal/purchase.tsx"),
    route("thank-you", "routes/site/thank-you.tsx"),
  ]),
  // Not in the spec: Pay Now of an unpaid invoice (POST), a new checkout for the same invoice.
  route("client/invoices/:invoiceId/pay", "routes/portal/invoice-pay.tsx"),
  route("client", "routes/portal/index.tsx"),
  layout("routes/portal/shell.tsx", [
    route("client/dashboard", "routes/portal/dashboard.tsx"),
    // The printable documents stay in the portal's frame (issue 37, item 13); printing shows the document.
    route("client/invoice/:invoiceId", "routes/portal/invoice.tsx", { id: "client-invoice" }),
    route("invoice/:invoiceId", "routes/portal/invoice.tsx", { id: "invoice" }),
    // Not in the spec (ADR 0505): a refund's credit note, printable like the invoice, and its PDF.
    route("client/credit-notes/:creditNoteId", "routes/portal/credit-note.tsx"),
    route("client/services", "routes/portal/services.tsx"),
    route("client/orders", "routes/portal/orders.tsx"),
    // Not in the spec (ADR 0512): an order's page, its brief and its conversation.
    route("client/orders/:orderId", "routes/portal/order.tsx"),
    route("client/invoices", "routes/portal/invoices.tsx"),
    // Not in the spec (issue "quotes"): the client's requests for custom work, and a new one.
    route("client/quotes", "routes/portal/quotes.tsx"),
    route("client/plans", "routes/portal/plans.tsx"),
    route("client/plans/subscribe/:slug", "routes/portal/plan-subscribe.tsx"),
    route("client/plans/:subscriptionId/card-saved", "routes/portal/plan-card-saved.ts"),
    route("client/plans/:subscriptionId/:change", "routes/portal/plan-change.tsx"),
    route("client/quotes/new", "routes/portal/quote-new.tsx"),
    // Not in the spec (issue 39): the client's watched domains, and one of them.
    route("client/domains", "routes/portal/domains.tsx"),
    route("client/domains/:domainId", "routes/portal/domain.tsx"),
    // Not in the spec (issue "quotes"): one of the client's quotes, to accept (then pay) or decline.
    route("client/quotes/:quoteId", "routes/portal/quote.tsx"),
    route("client/profile", "routes/portal/profile.tsx"),
    // Not in the spec: results of the header's search box (the client's own orders and invoices).
    route("client/search", "routes/portal/search.tsx"),
    // Not in the spec (issue 37): the bell's "See all", every notification kept, and the bell's actions.
    route("client/notifications", "routes/portal/notifications.tsx"),
  ]),
  // Not in the spec (ADR 0512): a file attached to an order's message, for the order's client.
  route("client/orders/:orderId/files/:attachmentId", "routes/portal/order-file.ts"),
  // Not in the spec (issue 37): the header search box's suggestions as one types (a fetcher's data).
  route("client/search/suggestions", "routes/portal/search-suggestions.ts"),
  // The invoices page's "Download All": one zip of PDFs.
  route("client/invoices/download-all", "routes/portal/invoices-download-all.ts"),
  // Not in the spec (issue 25): the profile's Privacy tab's "Download my data", one zip of everything.
  route("client/profile/export", "routes/portal/profile-export.ts"),
  route("client/credit-notes/:creditNoteId/pdf", "routes/portal/credit-note-pdf.ts"),
  // Not in the spec (issue "quotes"): a quote as a PDF file, for its client.
  route("client/quotes/:quoteId/pdf", "routes/portal/quote-pdf.ts"),
  // Not in the spec ("Download PDF is only a placeholder"): the invoice as a real PDF file.
  route("invoice/:invoiceId/pdf", "routes/portal/invoice-pdf.ts"),
  // Not in the spec (issue 40): an invoice or credit note as an e-invoice (Factur-X, CII/XRechnung, UBL).
  route("client/invoices/:invoiceId/e-invoice/:format", "routes/portal/invoice-einvoice.ts"),
  route("client/credit-notes/:creditNoteId/e-invoice/:format", "routes/portal/credit-note-einvoice.ts"),
  route("payment-success", "routes/portal/payment-success.tsx"),
  // Not in the spec: the payment providers' webhooks, and the built-in sandbox provider's checkout page.
  route("api/payments/:provider/webhook", "routes/api/payment-webhook.ts"),
  route("payments/sandbox/checkout", "routes/payments/sandbox-checkout.tsx"),

  // Currency helpers (public-site.md §7: detect-location, exchange-rates)
  route("api/detect-location", "routes/api/detect-location.ts"),
  route("api/exchange-rates", "routes/api/exchange-rates.ts"),
  // Not in the spec (ADR 0822): who is signed in, for the header of a shared public page, after load.
  route("api/session", "routes/api/session.ts"),
  // Live updates (client-portal.md §7 "Realtime subscriptions"): Server-Sent Events of the signed-in client.
  route("api/events", "routes/api/events.ts"),

  // Back office (client-portal.md §2: target for a non-client role after login; the rest is not in the
  // spec). Every loader and action checks the admin role itself: anyone else gets 404.
  route("admin", "routes/admin/index.tsx"),
  // Not a page: a file of an order's conversation, downloaded by the owner (ADR 0512).
  route("admin/orders/:orderId/files/:attachmentId", "routes/admin/order-file.ts"),
  // Not a page: a credit note's PDF, downloaded by the owner (ADR 0505).
  route("admin/credit-notes/:creditNoteId/pdf", "routes/admin/credit-note-pdf.ts"),
  // Not pages (issue 40): an invoice's or credit note's e-invoice files, for the owner.
  route("admin/invoices/:invoiceId/e-invoice/:format", "routes/admin/invoice-einvoice.ts"),
  route("admin/credit-notes/:creditNoteId/e-invoice/:format", "routes/admin/credit-note-einvoice.ts"),
  // Not a page: a quote's PDF, downloaded by the owner (issue "quotes").
  route("admin/quotes/:quoteId/pdf", "routes/admin/quote-pdf.ts"),
  // Not a page (issue 25): a client's data export, made by the owner for a request by email.
  route("admin/clients/:clientId/export", "routes/admin/client-export.ts"),
  layout("routes/admin/layout.tsx", [
    route("admin/dashboard", "routes/admin/dashboard.tsx"),
    route("admin/orders", "routes/admin/orders.tsx"),
    route("admin/orders/:orderId", "routes/admin/order.tsx"),
    route("admin/invoices", "routes/admin/invoices.tsx"),
    route("admin/invoices/:invoiceId", "routes/admin/invoice.tsx"),
    route("admin/credit-notes/:creditNoteId", "routes/admin/credit-note.tsx"),
    route("admin/messages", "routes/admin/messages.tsx"),
    route("admin/quotes", "routes/admin/quotes.tsx"),
    route("admin/quotes/new", "routes/admin/quote-new.tsx"),
    route("admin/quotes/:quoteId", "routes/admin/quote.tsx"),
    route("admin/messages/:messageId", "routes/admin/message.tsx"),
    route("admin/clients", "routes/admin/clients.tsx"),
    route("admin/clients/:clientId", "routes/admin/client.tsx"),
    route("admin/catalogue", "routes/admin/catalogue.tsx"),
    route("admin/catalogue/:serviceId", "routes/admin/catalogue-service.tsx"),
    // Not in the spec (issue 38, ADR 0530): the care plans, a new one, and one plan's editor.
    route("admin/plans", "routes/admin/plans.tsx"),
    route("admin/plans/new", "routes/admin/plan-edit.tsx", { id: "admin-plan-new" }),
    route("admin/plans/:planId", "routes/admin/plan-edit.tsx", { id: "admin-plan-edit" }),
    // Not in the spec (issue 39): every client's watched domains, by urgency.
    route("admin/domains", "routes/admin/domains.tsx"),
    route("admin/audit", "routes/admin/audit.tsx"),
    // The owner's bell's "See all" and its actions (issue 37).
    route("admin/notifications", "routes/admin/notifications.tsx"),
  ]),

  // better-auth's endpoints (verification and reset links land here).
  route("api/auth/*", "routes/api/auth.ts"),
  // Not in the spec: the old site's sendEmail call (§7), and the captured-mail inbox (off in production).
  route("api/send-email", "routes/api/send-email.ts"),
  route("dev/mail", "routes/dev/mail.tsx"),
  route("dev/mail/:emailId", "routes/dev/mail-message.tsx"),
  // Not in the spec: browser-test hooks, served only with TEST_HOOKS=true.
  route("api/test-hooks/:hook", "routes/dev/test-hooks.ts"),

  // Everything else is a real 404 page.
  route("*", "routes/site/not-found.tsx"),
] satisfies RouteConfig;
