/**
 * Bounds the schema's checks repeat, in a module of their own with no database code, so that pages can
 * show (and the browser check) the same numbers without bundling the schema.
 */

/** The longest message a client or the owner may write on an order. */
export const ORDER_MESSAGE_MAX_CHARS = 10_000;

/** The largest attachment accepted, in bytes (10 MB). */
export const ATTACHMENT_MAX_BYTES = 10 * 1024 * 1024;
