/**
 * The CSP source that server/security.ts lists in style-src for the stylesheet that ADR 0810 inlined.
 * Since ADR 0821 the stylesheet is a file of its own (allowed by 'self'), so no document carries the
 * element this hash allows any more; it stays until server/security.ts stops importing it.
 */
import { createHash } from "node:crypto";
import css from "~/app.css?inline";

/** `'sha256-…'` of the compiled stylesheet's text. */
export const INLINE_CSS_SOURCE = `'sha256-${createHash("sha256").update(css, "utf8").digest("base64")}'`;
