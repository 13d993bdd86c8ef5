/**
 * Reading a post to the owner's order page (a status change, or a message with files), with the body's
 * size checked before a byte of it is parsed: its declared Content-Length first (a message with five
 * files of 10 MB and its text fits; a form without files fits the site's usual 64 KB), then each file's
 * size before its bytes are copied. The refusals answer the form's shape (`{ ok: false, error,
 * fieldErrors }`) so the page shows them by the file input. The body limit in server/body-limit.ts gives
 * /admin/orders/ room for this; past its backstop the server answers 413 itself.
 */
import {
  ATTACHMENT_MAX_BYTES,
  ATTACHMENT_MESSAGES,
  type IncomingFile,
  MAX_ATTACHMENTS_PER_MESSAGE,
  sanitizeFilename,
} from "~/features/orders/attachments";
import type { FormFailure } from "~/ui/form";

/** A message's files at their largest, its text, and room for the multipart framing. */
export const MESSAGE_POST_MAX_BYTES = MAX_ATTACHMENTS_PER_MESSAGE * ATTACHMENT_MAX_BYTES + 1024 * 1024;
/** A form without files (a status change, a message without attachments). */
export const FORM_POST_MAX_BYTES = 64 * 1024;

export const ORDER_POST_MESSAGES = {
  tooLarge: `The files are too large together: attach at most ${MAX_ATTACHMENTS_PER_MESSAGE} files of up to ${ATTACHMENT_MAX_BYTES / (1024 * 1024)} MB each.`,
  formTooLarge: "The form is too large to send.",
} as const;

export type PostFailure = FormFailure & { status: 400 | 413 };

const isMultipart = (request: Request) =>
  (request.headers.get("content-type") ?? "").toLowerCase().startsWith("multipart/form-data");

/**
 * The post's form, once its declared size is within bounds (a multipart body up to
 * MESSAGE_POST_MAX_BYTES, any other up to FORM_POST_MAX_BYTES). A body sent without a length is counted
 * by the server's body limit as it arrives.
 */
export async function readOrderPost(
  request: Request,
): Promise<{ ok: true; form: FormData } | (PostFailure & { status: 413 })> {
  const multipart = isMultipart(request);
  const limit = multipart ? MESSAGE_POST_MAX_BYTES : FORM_POST_MAX_BYTES;
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (Number.isFinite(declared) && declared > limit) {
    const error = multipart ? ORDER_POST_MESSAGES.tooLarge : ORDER_POST_MESSAGES.formTooLarge;
    return { ok: false, status: 413, error, fieldErrors: { files: error } };
  }
  return { ok: true, form: await request.formData() };
}

/**
 * The message's files (`files`, the input's name), each one's size checked before its bytes are read: at
 * most five, none over 10 MB (413). An input left empty sends one nameless, empty part: not a file.
 * What the bytes are is the conversation's to check (postMessage).
 */
export async function messageFiles(
  form: FormData,
): Promise<{ ok: true; files: IncomingFile[] } | PostFailure> {
  const chosen = form
    .getAll("files")
    .filter((v): v is File => typeof v !== "string" && !(v.name === "" && v.size === 0));
  const refuse = (status: 400 | 413, error: string): PostFailure => ({
    ok: false,
    status,
    error,
    fieldErrors: { files: error },
  });
  if (chosen.length > MAX_ATTACHMENTS_PER_MESSAGE) return refuse(400, ATTACHMENT_MESSAGES.tooMany);
  const large = chosen.find((f) => f.size > ATTACHMENT_MAX_BYTES);
  if (large) return refuse(413, ATTACHMENT_MESSAGES.tooLarge(sanitizeFilename(large.name)));
  const files: IncomingFile[] = [];
  for (const f of chosen) {
    files.push({ name: f.name, type: f.type, bytes: new Uint8Array(await f.arrayBuffer()) });
  }
  return { ok: true, files };
}
