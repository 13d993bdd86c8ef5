import { redirect } from "react-router";
import { z } from "zod";
import { requireClient, safeRedirectPath } from "~/features/accounts/session.server";
import { applyBellAction, loadBell } from "~/features/notifications/bell.server";
import { actionResponse } from "~/ui/form";
import type { Route } from "./+types/notifications";

/** The bell's data (for a fetcher). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireClient(request, context, { api: true });
  return loadBell(context.runtime.database.db, user.id);
}

const actionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("read"), id: z.uuid() }),
  z.object({ intent: z.literal("remove"), id: z.uuid() }),
  z.object({ intent: z.literal("read-all") }),
]);

/** Mark read, mark all read, remove: scoped to the signed-in client's own notifications. */
export async function action({ request, context }: Route.ActionArgs) {
  const { user } = await requireClient(request, context, { api: true });
  const form = await request.formData();
  const parsed = actionSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success)
    return actionResponse({ ok: false, status: 400, error: "Unknown notification action." });
  const ok = await applyBellAction(context.runtime.database.db, user.id, parsed.data);
  const back = form.get("back");
  // A post without JavaScript goes back to the page it came from.
  if (typeof back === "string") return redirect(safeRedirectPath(back, "/client/dashboard"));
  if (!ok) return actionResponse({ ok: false, status: 404, error: "Notification not found." });
  return actionResponse({ ok: true });
}
