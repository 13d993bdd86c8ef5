/**
 * The words of a missing brief (ADR 0512), in a module without the brief's schema, so list pages show
 * the badge without bundling zod.
 */

/** The portal's badge while a brief is missing. */
export const WAITING_FOR_DETAILS = "Waiting for your details";
/** The back office's badge while a brief is missing. */
export const BRIEF_MISSING = "Brief missing";
