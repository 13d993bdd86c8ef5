import { redirect } from "react-router";
import { forwardCookies } from "~/features/accounts/session.server";
import type { Route } from "./+types/sign-out";

/** Sign out ends the session on the server and goes to /. */
export async function action({ request, context }: Route.ActionArgs) {
  try {
    const { headers } = await context.runtime.auth.api.signOut({
      headers: request.headers,
      returnHeaders: true,
    });
    return redirect("/", { headers: forwardCookies(headers) });
  } catch (error) {
    // No session (already signed out): nothing to end.
    context.logger.debug({ err: error }, "sign-out without a session");
    return redirect("/");
  }
}

export function loader() {
  return redirect("/");
}
