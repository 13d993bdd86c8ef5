import type { Route } from "./+types/auth";

/** better-auth's own endpoints, e.g. the links in verification and password-reset emails. */
export function loader({ request, context }: Route.LoaderArgs) {
  return context.runtime.auth.handler(request);
}

export function action({ request, context }: Route.ActionArgs) {
  return context.runtime.auth.handler(request);
}
