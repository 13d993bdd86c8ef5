/**
 * The compiled stylesheet, inlined into every document (ADR 0810), and the CSP source that allows
 * exactly this text: a hash rather than the response's nonce, so the element is the same bytes in every
 * response and nothing else inline can use it.
 */
import { createHash } from "node:crypto";
import css from "~/app.css?inline";

export const INLINE_CSS: string = css;

/** `'sha256-…'` of the inline stylesheet, for the Content-Security-Policy's style-src. */
export const INLINE_CSS_SOURCE = `'sha256-${createHash("sha256").update(css, "utf8").digest("base64")}'`;
