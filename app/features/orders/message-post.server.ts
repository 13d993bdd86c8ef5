/**
 * Reading a post that may carry a message's files (ADR 0512): the body's declared length is checked
 * before a byte is read (the Express body limit does the same in front of the route, and counts a body
 * without a length), then React Router's `request.formData()`; each file's size is checked before its
 * bytes are copied out, so a 50 MB file is refused by its size alone. What comes out is `postMessage`'s
 * input; the checks of the text, the kinds and the bytes are `postMessage`'s.
 */
import {
  filesProblem,
  type IncomingFile,
  MESSAGE_POST_MAX_BYTES,
  MESSAGE_POST_TOO_LARGE,
} from "./attachments";

/** A post the form could not be read from, in the forms' failure shape. */
export interface PostRefusal {
  ok: false;
  status: 400 | 413;
  error: string;
  fieldErrors: { body?: string; files?: string };
}

export const UNREADABLE_FORM = "The form could not be read. Please try again.";
/** A form without files (the brief, a status change) is the size of the site's other forms. */
export const FORM_POST_MAX_BYTES = 64 * 1024;
export const FORM_TOO_LARGE = "The form is too large to send.";

const isMultipart = (request: Request) =>
  (request.headers.get("content-type") ?? "").toLowerCase().startsWith("multipart/form-data");

const refuse = (status: 400 | 413, error: string, field?: "files"): PostRefusal => ({
  ok: false,
  status,
  error,
  fieldErrors: field ? { [field]: error } : {},
});

/**
 * The submitted form of a page that takes files, or a refusal: 413 when the declared length is over
 * MESSAGE_POST_MAX_BYTES (or the body turns out to be, without one) or a form without files is over the
 * usual 64 KB, 400 when it is no readable form.
 */
export async function readUploadForm(
  request: Request,
  maxBytes = MESSAGE_POST_MAX_BYTES,
): Promise<{ ok: true; form: FormData } | PostRefusal> {
  const declared = Number(request.headers.get("content-length") ?? Number.NaN);
  if (!isMultipart(request) && declared > FORM_POST_MAX_BYTES) return refuse(413, FORM_TOO_LARGE);
  if (declared > maxBytes) return refuse(413, MESSAGE_POST_TOO_LARGE, "files");
  try {
    return { ok: true, form: await request.formData() };
  } catch (error) {
    // The body limit stops a body without a length at the limit, and fails its stream with a 413.
    const status = (error as { status?: unknown } | null)?.status;
    const cause = (error as { cause?: { status?: unknown } } | null)?.cause?.status;
    return status === 413 || cause === 413
      ? refuse(413, MESSAGE_POST_TOO_LARGE)
      : refuse(400, UNREADABLE_FORM);
  }
}

/** The files of a form field: what the browser sent, without the empty part of an unused file input. */
function filesOf(form: FormData, field: string): File[] {
  return form
    .getAll(field)
    .filter((v): v is File => typeof v !== "string" && !(v.name === "" && v.size === 0));
}

/**
 * A message's text and files from its form (`body`, `files`): at most five files, none empty or over
 * 10 MB by its size (`filesProblem`), before any file's bytes are read.
 */
export async function messagePostOf(
  form: FormData,
): Promise<{ ok: true; body: string; files: IncomingFile[] } | PostRefusal> {
  const body = form.get("body");
  const files = filesOf(form, "files");
  const problem = filesProblem(files);
  if (problem) return refuse(problem.status, problem.error, "files");
  const incoming = await Promise.all(
    files.map(async (f) => ({ name: f.name, type: f.type, bytes: new Uint8Array(await f.arrayBuffer()) })),
  );
  // Browsers send a textarea's line breaks as CRLF; the text is kept (and counted) with LF.
  const text = typeof body === "string" ? body.replace(/\r\n?/g, "\n") : "";
  return { ok: true, body: text, files: incoming };
}
