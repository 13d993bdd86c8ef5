import { type AppLoadContext, data } from "react-router";

/** /dev/mail exists only where DEV_MAIL_ENABLED (default: outside production) allows it. */
export function requireDevInbox(context: AppLoadContext) {
  if (!context.runtime.config.mail.devInboxEnabled) throw data("Not Found", { status: 404 });
}
