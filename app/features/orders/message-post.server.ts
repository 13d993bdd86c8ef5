/**
 * Reading a post that may carry a message's files (ADRs 0512, 0514). Before a byte of a multipart body
 * is read, the post is counted against the account's message rate (refused posts included) and takes
 * one of the account's upload slots in this process (UPLOADS_IN_FLIGHT_PER_ACCOUNT); then the body is
 * parsed as a stream (busboy), each file checked while it arrives: a refused kind is refused on its
 * name, a mismatched one on its first bytes, a file over 10 MB or over the account's storage quota as
 * soon as it is, and a refused file is never held whole (the rest of the body is read and dropped, so
 * the answer reaches the browser). A form without files (the brief, a status change) is read up to the
 * site's usual 64 KB. What comes out is `postMessage`'s input; the checks of the text and of each whole
 * file's bytes are still `postMessage`'s.
 */
import { Readable } from "node:stream";
import busboy from "busboy";
import type { Config } from "~/config.server";
import type { Database } from "~/db/client.server";
import { consumeRateLimit } from "~/features/rate-limit/rate-limit.server";
import {
  ATTACHMENT_KINDS,
  ATTACHMENT_MAX_BYTES,
  ATTACHMENT_MESSAGES,
  type AttachmentKind,
  type IncomingFile,
  MAX_ATTACHMENTS_PER_MESSAGE,
  MESSAGE_POST_MAX_BYTES,
  MESSAGE_POST_TOO_LARGE,
  sanitizeFilename,
  sniffBinaryKind,
} from "./attachments";
import { CONVERSATION_MESSAGES } from "./conversation";
import {
  MESSAGE_WINDOW_MS,
  MESSAGES_PER_WINDOW,
  storedAttachmentBytes,
  type Viewer,
} from "./conversation.server";
import { partHeaderFilter } from "./part-header-filter.server";
import {
  processUploadsInFlight,
  UPLOADS_IN_FLIGHT_PER_ACCOUNT,
  type UploadsInFlight,
} from "./uploads-in-flight.server";

/** A post the form could not be read from (or may not be read now), in the forms' failure shape. */
export interface PostRefusal {
  ok: false;
  status: 400 | 413 | 429;
  error: string;
  fieldErrors: { body?: string; files?: string };
  /** The message's text when it was read before the refusal (so nothing typed is lost). */
  body?: string;
  /** For a 429. */
  retryAfterSeconds?: number;
}

/** A post read whole: its text fields, and the files of its `files` field (checked as they came). */
export interface UploadPost {
  ok: true;
  /** The text fields only. */
  form: FormData;
  files: IncomingFile[];
  /** Whether the post was counted against the message rate already (every multipart post is). */
  counted: boolean;
}

export interface UploadDeps {
  db: Database;
  config: Pick<Config, "attachmentQuotaBytes">;
  /** The process's count of uploads in flight (tests bring their own). */
  uploadsInFlight?: UploadsInFlight;
}

export const UNREADABLE_FORM = "The form could not be read. Please try again.";
/** A form without files (the brief, a status change) is the size of the site's other forms. */
export const FORM_POST_MAX_BYTES = 64 * 1024;
export const FORM_TOO_LARGE = "The form is too large to send.";
/** The text fields of a post with files, together (a message is at most 10,000 characters). */
export const MULTIPART_TEXT_MAX_BYTES = 256 * 1024;
export const UPLOADS_IN_FLIGHT_MESSAGE = `You are already sending ${UPLOADS_IN_FLIGHT_PER_ACCOUNT} messages with files. Please wait until they are sent, then try again.`;
/** What a 429 for uploads in flight suggests waiting: a large upload takes some seconds. */
export const UPLOADS_IN_FLIGHT_RETRY_SECONDS = 10;

const contentTypeOf = (request: Request) => (request.headers.get("content-type") ?? "").toLowerCase();
const isMultipart = (request: Request) => contentTypeOf(request).startsWith("multipart/form-data");

const refuse = (
  status: PostRefusal["status"],
  error: string,
  field?: "files",
  more: Partial<PostRefusal> = {},
): PostRefusal => ({ ok: false, status, error, fieldErrors: field ? { [field]: error } : {}, ...more });

/** Reads and drops what is left of a body, so the answer reaches a browser still sending it. */
function discard(body: ReadableStream<Uint8Array> | Readable | null): void {
  if (!body) return;
  if (body instanceof Readable) {
    body.on("error", () => {});
    body.resume();
    return;
  }
  if (body.locked) return;
  void body.pipeTo(new WritableStream()).catch(() => {});
}

/**
 * Reads the post to a page that takes files and hands it (or why it was refused) to `act`; an upload's
 * slot is held until `act` has finished (its files are in memory until they are stored). 429 when the
 * account is over its message rate or has its uploads in flight already, 413 over a size or the quota,
 * 400 for a refused file or no readable form.
 */
export async function withUploadPost<T>(
  deps: UploadDeps,
  author: Viewer,
  request: Request,
  act: (post: UploadPost | PostRefusal) => Promise<T>,
): Promise<T> {
  if (!isMultipart(request)) return act(await readSmallForm(request));
  // Counted first, whatever becomes of the post (ADR 0514).
  const rate = await consumeRateLimit(
    deps.db,
    `order-message:${author.id}`,
    MESSAGES_PER_WINDOW,
    MESSAGE_WINDOW_MS,
  );
  if (!rate.allowed) {
    discard(request.body);
    return act(
      refuse(429, CONVERSATION_MESSAGES.rateLimited, undefined, {
        retryAfterSeconds: rate.retryAfterSeconds,
      }),
    );
  }
  const release = (deps.uploadsInFlight ?? processUploadsInFlight).tryAcquire(author.id);
  if (!release) {
    discard(request.body);
    return act(
      refuse(429, UPLOADS_IN_FLIGHT_MESSAGE, undefined, {
        retryAfterSeconds: UPLOADS_IN_FLIGHT_RETRY_SECONDS,
      }),
    );
  }
  try {
    const declared = Number(request.headers.get("content-length") ?? Number.NaN);
    if (declared > MESSAGE_POST_MAX_BYTES) {
      discard(request.body);
      return await act(refuse(413, MESSAGE_POST_TOO_LARGE, "files"));
    }
    const stored = await storedAttachmentBytes(deps.db, author.id);
    return await act(await readMultipart(request, { stored, quota: deps.config.attachmentQuotaBytes }));
  } finally {
    release();
  }
}

/** A url-encoded form, at most FORM_POST_MAX_BYTES, counted as it is read. */
async function readSmallForm(request: Request): Promise<UploadPost | PostRefusal> {
  const declared = Number(request.headers.get("content-length") ?? Number.NaN);
  if (declared > FORM_POST_MAX_BYTES) {
    discard(request.body);
    return refuse(413, FORM_TOO_LARGE);
  }
  if (!contentTypeOf(request).startsWith("application/x-www-form-urlencoded"))
    return refuse(400, UNREADABLE_FORM);
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    if (request.body) {
      const reader = request.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        size += value.byteLength;
        if (size > FORM_POST_MAX_BYTES) {
          reader.releaseLock();
          discard(request.body);
          return refuse(413, FORM_TOO_LARGE);
        }
        chunks.push(value);
      }
    }
  } catch (error) {
    return isTooLarge(error) ? refuse(413, FORM_TOO_LARGE) : refuse(400, UNREADABLE_FORM);
  }
  const form = new FormData();
  for (const [name, value] of new URLSearchParams(Buffer.concat(chunks).toString("utf8"))) {
    form.append(name, value);
  }
  return { ok: true, form, files: [], counted: false };
}

/** The body limit (server/body-limit.ts) fails a body without a length at its limit with a 413. */
function isTooLarge(error: unknown): boolean {
  const status = (error as { status?: unknown } | null)?.status;
  const cause = (error as { cause?: { status?: unknown } } | null)?.cause?.status;
  return status === 413 || cause === 413;
}

/** The refused kind of a name (an extension that is no allowed kind), or the kind it claims. */
function claimOf(name: string, declaredType: string): { refused: boolean; claimed: AttachmentKind | null } {
  const dot = name.lastIndexOf(".");
  const ext = dot > 0 ? name.slice(dot + 1).toLowerCase() : "";
  const kinds = Object.keys(ATTACHMENT_KINDS) as AttachmentKind[];
  if (ext) {
    const claimed = kinds.find((k) => ATTACHMENT_KINDS[k].extensions.includes(ext)) ?? null;
    return { refused: !claimed, claimed };
  }
  const base = declaredType.split(";")[0]!.trim().toLowerCase();
  return { refused: false, claimed: kinds.find((k) => ATTACHMENT_KINDS[k].declared.includes(base)) ?? null };
}

/** The longest signature sniffBinaryKind knows (PNG's). */
const SIGNATURE_BYTES = 8;

/**
 * One file as it arrives: refused at once when over 10 MB; when its first bytes or (for a text kind)
 * its encoding refuse it, its chunks are dropped and it is only counted to its end, so that a file both
 * too large and of the wrong kind is still answered 413, as before (ADR 0512: the size first).
 */
class FileIntake {
  readonly name: string;
  private readonly claimed: AttachmentKind | null;
  private chunks: Buffer[] = [];
  size = 0;
  private head = Buffer.alloc(0);
  private mode: "undecided" | "binary" | "text" = "undecided";
  private readonly decoder = new TextDecoder("utf-8", { fatal: true });
  private textBroken = false;
  /** Why the bytes refuse it (answered at its end, unless it turns out too large first). */
  private refusal: { status: 400; error: string } | null = null;

  constructor(
    readonly rawName: string,
    readonly declaredType: string,
  ) {
    this.name = sanitizeFilename(rawName);
    this.claimed = claimOf(this.name, declaredType).claimed;
  }

  /** Refused on its name alone: an extension that is no allowed kind. */
  refusedByName(): string | null {
    return claimOf(this.name, this.declaredType).refused ? ATTACHMENT_MESSAGES.notAllowed(this.name) : null;
  }

  /** Takes a chunk; a problem (status and message) when the file is refused by now. */
  push(chunk: Buffer): { status: 400 | 413; error: string } | null {
    this.size += chunk.length;
    if (this.size > ATTACHMENT_MAX_BYTES)
      return { status: 413, error: ATTACHMENT_MESSAGES.tooLarge(this.name) };
    if (this.refusal) return null;
    this.chunks.push(chunk);
    if (!this.textBroken) {
      try {
        this.decoder.decode(chunk, { stream: true });
        if (chunk.includes(0)) this.textBroken = true;
      } catch {
        this.textBroken = true;
      }
    }
    if (this.mode === "undecided" && this.head.length < SIGNATURE_BYTES) {
      this.head = Buffer.concat([this.head, chunk.subarray(0, SIGNATURE_BYTES - this.head.length)]);
      if (this.head.length >= SIGNATURE_BYTES) this.refuseBy(this.decide());
    }
    if (this.mode === "text" && this.textBroken) this.refuseBy(this.kindProblem());
    return null;
  }

  private refuseBy(problem: { status: 400; error: string } | null): void {
    if (!problem || this.refusal) return;
    this.refusal = problem;
    this.chunks = [];
  }

  /** The file once it has ended: its bytes, or the problem. */
  end(): { status: 400 | 413; error: string } | { bytes: Buffer } {
    if (this.size === 0) return { status: 400, error: ATTACHMENT_MESSAGES.empty(this.name) };
    if (this.refusal) return this.refusal;
    if (this.mode === "undecided") {
      const problem = this.decide();
      if (problem) return problem;
    }
    if (this.mode === "text") {
      try {
        this.decoder.decode();
      } catch {
        this.textBroken = true;
      }
      if (this.textBroken) return this.kindProblem();
    }
    const bytes = Buffer.concat(this.chunks);
    this.chunks = [];
    return { bytes };
  }

  /** Drops what was kept (a refused file is never held whole). */
  drop(): void {
    this.chunks = [];
  }

  /** Binary by its signature, or text (checked to the end): as checkAttachment decides on the whole. */
  private decide(): { status: 400; error: string } | null {
    const sniffed = sniffBinaryKind(this.head);
    const binary = sniffed && sniffed !== "text" ? sniffed : null;
    const claimed = this.claimed;
    if (claimed && !ATTACHMENT_KINDS[claimed].text) {
      if (binary !== claimed) return { status: 400, error: ATTACHMENT_MESSAGES.mismatch(this.name, claimed) };
      this.mode = "binary";
      return null;
    }
    if (claimed && binary) return { status: 400, error: ATTACHMENT_MESSAGES.mismatch(this.name, claimed) };
    this.mode = binary ? "binary" : "text";
    return this.mode === "text" && this.textBroken ? this.kindProblem() : null;
  }

  private kindProblem(): { status: 400; error: string } {
    return {
      status: 400,
      error: this.claimed
        ? ATTACHMENT_MESSAGES.mismatch(this.name, this.claimed)
        : ATTACHMENT_MESSAGES.notAllowed(this.name),
    };
  }
}

/**
 * A multipart body read as a stream: the text fields, and the files of `files`, each checked as it
 * arrives. The first problem wins; from then on nothing more is kept, the rest of the body is dropped
 * and the refusal answered at once.
 */
function readMultipart(
  request: Request,
  quota: { stored: number; quota: number },
): Promise<UploadPost | PostRefusal> {
  return new Promise((resolve) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: { "content-type": request.headers.get("content-type") ?? "" },
        // Browsers send names as UTF-8.
        defParamCharset: "utf8",
        limits: {
          fieldSize: MULTIPART_TEXT_MAX_BYTES,
          fields: 100,
          parts: 120,
          fileSize: ATTACHMENT_MAX_BYTES + 1,
        },
      });
    } catch {
      // No boundary, or not a multipart type busboy reads.
      discard(request.body);
      resolve(refuse(400, UNREADABLE_FORM));
      return;
    }
    if (!request.body) {
      resolve(refuse(400, UNREADABLE_FORM));
      return;
    }
    const source = Readable.fromWeb(request.body as import("node:stream/web").ReadableStream);
    const form = new FormData();
    const files: IncomingFile[] = [];
    const pending: Promise<void>[] = [];
    let textBytes = 0;
    let fileBytes = 0;
    let named = 0;
    let settled = false;

    const textOf = () => {
      const body = form.get("body");
      return typeof body === "string" ? body.replace(/\r\n?/g, "\n") : undefined;
    };
    const fail = (status: PostRefusal["status"], error: string, field?: "files") => {
      if (settled) return;
      settled = true;
      // Not destroyed: this may run inside busboy's own callback, which goes on with its chunk. It is
      // fed nothing more, and every part it still hands over is dropped.
      source.unpipe();
      for (const file of files) file.bytes = new Uint8Array(0);
      discard(source);
      resolve(refuse(status, error, field, { body: textOf() }));
    };

    parser.on("field", (name, value, info) => {
      textBytes += Buffer.byteLength(name) + Buffer.byteLength(value);
      if (info.valueTruncated || info.nameTruncated || textBytes > MULTIPART_TEXT_MAX_BYTES) {
        return fail(413, FORM_TOO_LARGE);
      }
      form.append(name, value);
    });
    parser.on("file", (field, stream, info) => {
      stream.on("error", () => {});
      if (settled || field !== "files") {
        // Only the files field carries attachments; anything else is not kept.
        stream.resume();
        return;
      }
      const intake = new FileIntake(info.filename ?? "", info.mimeType);
      if (info.filename) named += 1;
      if (named > MAX_ATTACHMENTS_PER_MESSAGE) return fail(400, ATTACHMENT_MESSAGES.tooMany, "files");
      if (info.filename) {
        const refused = intake.refusedByName();
        if (refused) return fail(400, refused, "files");
      }
      pending.push(
        new Promise<void>((done) => {
          stream.on("data", (chunk: Buffer) => {
            if (settled) return;
            fileBytes += chunk.length;
            const problem = intake.push(chunk);
            if (problem) {
              intake.drop();
              return fail(problem.status, problem.error, "files");
            }
            if (quota.stored + fileBytes > quota.quota) {
              intake.drop();
              return fail(413, ATTACHMENT_MESSAGES.quota(quota.quota, quota.stored), "files");
            }
          });
          stream.on("end", () => {
            done();
            if (settled) return;
            // The empty part an unused file input sends.
            if (!info.filename && intake.size === 0) return;
            const ended = intake.end();
            if ("status" in ended) return fail(ended.status, ended.error, "files");
            files.push({ name: intake.rawName, type: info.mimeType, bytes: ended.bytes });
          });
          stream.on("close", done);
        }),
      );
    });
    parser.on("partsLimit", () => fail(413, FORM_TOO_LARGE));
    parser.on("fieldsLimit", () => fail(413, FORM_TOO_LARGE));
    parser.on("error", () => fail(400, UNREADABLE_FORM));
    parser.on("close", () => {
      void Promise.all(pending).then(() => {
        if (settled) return;
        settled = true;
        resolve({ ok: true, form, files, counted: true });
      });
    });
    source.on("error", (error) => {
      if (isTooLarge(error)) fail(413, MESSAGE_POST_TOO_LARGE);
      else fail(400, UNREADABLE_FORM);
    });
    const boundary = /boundary="?([^";]+)"?/i.exec(request.headers.get("content-type") ?? "")?.[1] ?? "";
    source.pipe(partHeaderFilter(boundary)).pipe(parser);
  });
}

/**
 * A message's text and files from a read post (`body`, `files`). Browsers send a textarea's line
 * breaks as CRLF; the text is kept (and counted) with LF.
 */
export function messagePostOf(post: UploadPost): { body: string; files: IncomingFile[] } {
  const body = post.form.get("body");
  const text = typeof body === "string" ? body.replace(/\r\n?/g, "\n") : "";
  return { body: text, files: post.files };
}
