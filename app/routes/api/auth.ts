import { isPublicAuthEndpoint } from "~/features/accounts/auth.server";
import type { Route } from "./+types/auth";

/**
 * better-auth's endpoints that the app exposes: only the links in verification and password-reset
 * emails (see isPublicAuthEndpoint). Every other path answers 404 as if it did not exist.
 */
function handle(request: Request, context: Route.LoaderArgs["context"]) {
  if (!isPublicAuthEndpoint(request.method, new URL(request.url).pathname)) {
    return Response.json({ error: "Not found." }, { status: 404, headers: { "Cache-Control": "no-store" } });
  }
  return context.runtime.auth.handler(request);
}

export const loader = ({ request, context }: Route.LoaderArgs) => handle(request, context);
export const action = ({ request, context }: Route.ActionArgs) => handle(request, context);
