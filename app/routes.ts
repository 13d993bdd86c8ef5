/**
 * The route table. It mirrors the route tables of spec/public-site.md and spec/client-portal.md one to
 * one; the few routes the spec does not list (password reset, privacy, health, feeds) are marked.
 */
import { index, layout, type RouteConfig, route } from "@react-router/dev/routes";

export default [
  // Public site (public-site.md §2)
  index("routes/site/home.tsx"),
  route("services/email-migration", "routes/site/services/email-migration.tsx"),
  route("services/email-deliverability", "routes/site/services/email-deliverability.tsx"),
  route("services/ssl-setup", "routes/site/services/ssl-setup.tsx"),
  route("services/cloud-management", "routes/site/services/cloud-management.tsx"),
  route("services/data-migration", "routes/site/services/data-migration.tsx"),
  route("services/hosting-support", "routes/site/services/hosting-support.tsx"),
  route("services/acronis-setup", "routes/site/services/acronis-setup.tsx"),
  route("services/per-incident-support", "routes/site/services/per-incident-support.tsx"),
  route("services/:serviceId", "routes/site/service-redirect.tsx"),
  route("blog/:slug", "routes/site/blog-post.tsx"),
  route("thank-you", "routes/site/thank-you.tsx"),
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
  // Visitors may look at the purchase page, so it sits outside the signed-in shell.
  route("client/purchase/:serviceId", "routes/portal/purchase.tsx"),
  route("client/invoice/:invoiceId", "routes/portal/invoice.tsx", { id: "client-invoice" }),
  route("client", "routes/portal/index.tsx"),
  layout("routes/portal/shell.tsx", [
    route("client/dashboard", "routes/portal/dashboard.tsx"),
    route("client/services", "routes/portal/services.tsx"),
    route("client/orders", "routes/portal/orders.tsx"),
    route("client/invoices", "routes/portal/invoices.tsx"),
    route("client/profile", "routes/portal/profile.tsx"),
    // Not in the spec: results of the header's search box (the client's own orders and invoices).
    route("client/search", "routes/portal/search.tsx"),
  ]),
  // The invoices page's "Download All": one zip of PDFs.
  route("client/invoices/download-all", "routes/portal/invoices-download-all.ts"),
  // Not in the spec: the bell's data and actions (mark read, mark all read, remove).
  route("client/notifications", "routes/portal/notifications.ts"),
  route("invoice/:invoiceId", "routes/portal/invoice.tsx", { id: "invoice" }),
  route("payment-success", "routes/portal/payment-success.tsx"),

  // Currency helpers (public-site.md §7: detect-location, exchange-rates)
  route("api/detect-location", "routes/api/detect-location.ts"),
  route("api/exchange-rates", "routes/api/exchange-rates.ts"),
  // Live updates (client-portal.md §7 "Realtime subscriptions"): Server-Sent Events of the signed-in client.
  route("api/events", "routes/api/events.ts"),

  // Back office (client-portal.md §2: target for a non-client role after login)
  route("admin/dashboard", "routes/admin/dashboard.tsx"),

  // better-auth's endpoints (verification and reset links land here).
  route("api/auth/*", "routes/api/auth.ts"),
  // Not in the spec: the old site's sendEmail call (§7), and the captured-mail inbox (off in production).
  route("api/send-email", "routes/api/send-email.ts"),
  route("dev/mail", "routes/dev/mail.tsx"),
  route("dev/mail/:emailId", "routes/dev/mail-message.tsx"),
  // Not in the spec: browser-test hooks, served only with TEST_HOOKS=true.
  route("__test/:hook", "routes/dev/test-hooks.ts"),

  // Everything else is a real 404 page.
  route("*", "routes/site/not-found.tsx"),
] satisfies RouteConfig;
