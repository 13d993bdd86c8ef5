// Not in the spec's route table: the old site's sendEmail function, kept for compatibility
// (public-site.md §7) and used by the contact form when JavaScript runs.
import { handleSendEmailApi } from "~/features/contact/contact-action.server";
import type { Route } from "./+types/send-email";

export const action = ({ request, context }: Route.ActionArgs) => handleSendEmailApi(request, context);
export const loader = ({ request, context }: Route.LoaderArgs) => handleSendEmailApi(request, context);
