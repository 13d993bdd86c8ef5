/**
 * Record ids: every table's primary key is a UUID, written in hex with dashes. An id that comes from
 * outside (a route parameter, a provider's metadata, a search box) is checked with `isUuid` before it
 * reaches a query, so a malformed one is as unknown as a missing one (a 404, not a database error).
 * Lax on purpose: any hex UUID PostgreSQL's `uuid` type reads, whatever its version or variant bits.
 * Pure, no zod: shared by the server and the browser.
 */

/** The pattern of a UUID without anchors, for patterns that contain one (a path with an id in it). */
export const UUID_PATTERN = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";

const UUID = new RegExp(`^${UUID_PATTERN}$`, "i");

/** Whether `value` is a whole UUID (either case). */
export function isUuid(value: string | null | undefined): value is string {
  return typeof value === "string" && UUID.test(value);
}
