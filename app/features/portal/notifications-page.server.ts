/**
 * The notifications page of each side (the client's /client/notifications, the owner's
 * /admin/notifications: ADR 0515) and the bell's actions posted to it. The route checks who is signed
 * in; these read and change that user's own notifications only.
 */
import { redirect } from "react-router";
import type { Database } from "~/db/client.server";
import { safeRedirectPath } from "~/features/accounts/redirect";
import { parsePage } from "~/features/lists/listing";
import { applyBellAction, listNotifications, parseBellAction } from "~/features/notifications/bell.server";
import { actionResponse } from "~/ui/form";

/** One page ("?page=") of the user's notifications, newest first. */
export function notificationsPage(db: Database, userId: string, request: Request) {
  return listNotifications(db, userId, parsePage(new URL(request.url).searchParams.get("page")));
}

/**
 * Mark read, mark all read, remove: the bell's and the page's forms. A post without JavaScript names
 * the page it came from (`back`) and goes back there; a fetcher's gets the one form answer.
 */
export async function notificationsAction(db: Database, userId: string, request: Request, home: string) {
  const form = await request.formData();
  const action = parseBellAction(form);
  if (!action) return actionResponse({ ok: false, status: 400, error: "Unknown notification action." });
  const ok = await applyBellAction(db, userId, action);
  const back = form.get("back");
  if (typeof back === "string") return redirect(safeRedirectPath(back, home));
  if (!ok) return actionResponse({ ok: false, status: 404, error: "Notification not found." });
  return actionResponse({ ok: true });
}
