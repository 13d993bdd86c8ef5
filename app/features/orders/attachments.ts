/**
 * Files attached to an order's messages (ADR 0512): which kinds are accepted, what a file really is
 * (its bytes decide, not the type the browser declared), a safe name to keep, and the headers a
 * download is served with. Pure: no I/O; the checks run on the server (and may run in the browser).
 */
import { ATTACHMENT_MAX_BYTES } from "~/db/limits";

export { ATTACHMENT_MAX_BYTES };
export const MAX_ATTACHMENTS_PER_MESSAGE = 5;
/** The longest name kept, extension included. */
export const MAX_FILENAME_CHARS = 120;

export type AttachmentKind = "pdf" | "png" | "jpeg" | "zip" | "txt" | "csv" | "eml";

interface KindInfo {
  label: string;
  contentType: string;
  /** The first is the one a name without a matching extension gets. */
  extensions: readonly string[];
  /** Declared types that claim this kind (for a name without an extension). */
  declared: readonly string[];
  text: boolean;
}

export const ATTACHMENT_KINDS: Readonly<Record<AttachmentKind, KindInfo>> = {
  pdf: {
    label: "PDF",
    contentType: "application/pdf",
    extensions: ["pdf"],
    declared: ["application/pdf"],
    text: false,
  },
  png: { label: "PNG", contentType: "image/png", extensions: ["png"], declared: ["image/png"], text: false },
  jpeg: {
    label: "JPEG",
    contentType: "image/jpeg",
    extensions: ["jpg", "jpeg"],
    declared: ["image/jpeg", "image/jpg", "image/pjpeg"],
    text: false,
  },
  zip: {
    label: "ZIP",
    contentType: "application/zip",
    extensions: ["zip"],
    declared: ["application/zip", "application/x-zip-compressed"],
    text: false,
  },
  txt: {
    label: "TXT",
    contentType: "text/plain; charset=utf-8",
    extensions: ["txt"],
    declared: ["text/plain"],
    text: true,
  },
  csv: {
    label: "CSV",
    contentType: "text/csv; charset=utf-8",
    extensions: ["csv"],
    declared: ["text/csv"],
    text: true,
  },
  eml: {
    label: "EML",
    contentType: "message/rfc822",
    extensions: ["eml"],
    declared: ["message/rfc822"],
    text: true,
  },
};

const KINDS = Object.keys(ATTACHMENT_KINDS) as AttachmentKind[];

/** "PDF, PNG, JPEG, ZIP, TXT, CSV or EML". */
export const ALLOWED_KINDS_TEXT = `${KINDS.slice(0, -1)
  .map((k) => ATTACHMENT_KINDS[k].label)
  .join(", ")} or ${ATTACHMENT_KINDS[KINDS.at(-1)!].label}`;

/** What the file input may offer (`accept`): every allowed extension. */
export const ACCEPT_ATTACHMENTS = KINDS.flatMap((k) =>
  ATTACHMENT_KINDS[k].extensions.map((e) => `.${e}`),
).join(",");

const startsWith = (bytes: Uint8Array, signature: readonly number[]) =>
  bytes.length >= signature.length && signature.every((b, i) => bytes[i] === b);

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** Valid UTF-8 without a NUL: what a text attachment must be. */
export function isPlainText(bytes: Uint8Array): boolean {
  if (bytes.includes(0)) return false;
  try {
    utf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/**
 * What the bytes are, by their signature: PDF (`%PDF-`), PNG, JPEG, ZIP (`PK\x03\x04`), else text when
 * they are valid UTF-8 without NUL (which of TXT, CSV or EML is the name's to say), else null.
 */
export function sniffBinaryKind(bytes: Uint8Array): "pdf" | "png" | "jpeg" | "zip" | "text" | null {
  if (startsWith(bytes, [0x25, 0x50, 0x44, 0x46, 0x2d])) return "pdf";
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "png";
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "jpeg";
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) return "zip";
  return isPlainText(bytes) ? "text" : null;
}

/** The extension of a name, lower-cased, without the dot; "" when none. */
function extensionOf(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : "";
}

function kindOfExtension(ext: string): AttachmentKind | null {
  return KINDS.find((k) => ATTACHMENT_KINDS[k].extensions.includes(ext)) ?? null;
}

function kindOfDeclared(type: string): AttachmentKind | null {
  const base = type.split(";")[0]!.trim().toLowerCase();
  return KINDS.find((k) => ATTACHMENT_KINDS[k].declared.includes(base)) ?? null;
}

// Control characters (C0, DEL, C1: Cc), and the invisible format marks (Cf) that can disguise an
// extension ("invoice\u202Efdp.exe" shows as "invoiceexe.pdf").
const UNSAFE_CHARACTERS = /[\p{Cc}\p{Cf}]/gu;
// Characters file systems or the Content-Disposition header treat specially.
const RESERVED_CHARACTERS = /["*:<>?|]/g;

/**
 * A name safe to keep and to offer for download: the last part of any path (no `/` or `\`), without
 * control or invisible characters, quotes or reserved characters, no leading dots, spaces collapsed,
 * at most MAX_FILENAME_CHARS characters (the extension kept), "attachment" when nothing is left.
 */
export function sanitizeFilename(name: string): string {
  const base = name.normalize("NFC").split(/[/\\]/).pop() ?? "";
  let clean = base
    .replace(UNSAFE_CHARACTERS, "")
    .replace(RESERVED_CHARACTERS, "_")
    .replace(/\s+/g, " ")
    .replace(/^[\s.]+|[\s.]+$/g, "");
  if (!clean) clean = "attachment";
  if (clean.length > MAX_FILENAME_CHARS) {
    const ext = extensionOf(clean);
    const tail = ext && ext.length <= 10 ? `.${ext}` : "";
    clean = `${clean.slice(0, MAX_FILENAME_CHARS - tail.length).replace(/[\s.]+$/, "")}${tail}`;
  }
  return clean;
}

/** A name whose extension says its kind: kept when it does, else the kind's extension is appended. */
function withExtension(name: string, kind: AttachmentKind): string {
  const { extensions } = ATTACHMENT_KINDS[kind];
  if (extensions.includes(extensionOf(name))) return name;
  const ext = `.${extensions[0]}`;
  return `${name.slice(0, MAX_FILENAME_CHARS - ext.length).replace(/[\s.]+$/, "")}${ext}`;
}

/** A file as the route hands it over: its name and declared type from the form, and its bytes. */
export interface IncomingFile {
  name: string;
  /** The type the browser declared: only a hint for a name without an extension. */
  type: string;
  bytes: Uint8Array;
}

/** A file accepted for storage. */
export interface CheckedAttachment {
  filename: string;
  kind: AttachmentKind;
  contentType: string;
  bytes: Uint8Array;
  size: number;
}

export type AttachmentCheck =
  | { ok: true; attachment: CheckedAttachment }
  | { ok: false; status: 400 | 413; error: string };

const formatMegabytes = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

/**
 * The largest request that posts a message: five files at the limit, the text and the form's framing
 * (a megabyte is far more than either). The server refuses a larger body before reading it.
 */
export const MESSAGE_POST_MAX_BYTES = MAX_ATTACHMENTS_PER_MESSAGE * ATTACHMENT_MAX_BYTES + 1024 * 1024;
/** What a post over MESSAGE_POST_MAX_BYTES is answered (413). */
export const MESSAGE_POST_TOO_LARGE = `The request is too large: attach at most ${MAX_ATTACHMENTS_PER_MESSAGE} files of up to ${formatMegabytes(ATTACHMENT_MAX_BYTES)} each to one message.`;

/** A file's size as a list shows it: "512 bytes", "14 KB", "2.5 MB". */
export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} ${bytes === 1 ? "byte" : "bytes"}`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  const mb = bytes / (1024 * 1024);
  return `${mb < 10 ? mb.toFixed(1).replace(/\.0$/, "") : Math.round(mb)} MB`;
}

export const ATTACHMENT_MESSAGES = {
  tooMany: `Attach at most ${MAX_ATTACHMENTS_PER_MESSAGE} files to one message.`,
  empty: (name: string) => `${name} is empty.`,
  tooLarge: (name: string) => `${name} is larger than ${formatMegabytes(ATTACHMENT_MAX_BYTES)}.`,
  notAllowed: (name: string) => `${name} cannot be attached: only ${ALLOWED_KINDS_TEXT} files are accepted.`,
  mismatch: (name: string, kind: AttachmentKind) =>
    `${name} is not a real ${ATTACHMENT_KINDS[kind].label} file: its content does not match its type.`,
  /** Over ATTACHMENT_QUOTA_MB (ADR 0514): what the account keeps already, and the quota. */
  quota: (quotaBytes: number, storedBytes: number) =>
    `These files would take your attachments over the ${formatMegabytes(quotaBytes)} one account may keep (${formatFileSize(storedBytes)} stored already). Send the message without files, or with smaller ones.`,
} as const;

/**
 * Checks one file: its size (1 byte to 10 MB), its kind, and that its bytes are what it claims to be.
 * The claim is the name's extension, or for a name without one the declared type, or else the bytes
 * alone. A binary kind must carry its signature; TXT, CSV and EML must be UTF-8 without NUL. The kept
 * content type is the checked kind's, and the kept name ends with one of its extensions.
 */
export function checkAttachment(file: IncomingFile): AttachmentCheck {
  const filename = sanitizeFilename(file.name);
  const size = file.bytes.byteLength;
  if (size === 0) return { ok: false, status: 400, error: ATTACHMENT_MESSAGES.empty(filename) };
  if (size > ATTACHMENT_MAX_BYTES)
    return { ok: false, status: 413, error: ATTACHMENT_MESSAGES.tooLarge(filename) };
  const ext = extensionOf(filename);
  const claimed = ext ? kindOfExtension(ext) : kindOfDeclared(file.type);
  if (ext && !claimed) return { ok: false, status: 400, error: ATTACHMENT_MESSAGES.notAllowed(filename) };
  const sniffed = sniffBinaryKind(file.bytes);
  if (!sniffed) {
    return {
      ok: false,
      status: 400,
      error: claimed
        ? ATTACHMENT_MESSAGES.mismatch(filename, claimed)
        : ATTACHMENT_MESSAGES.notAllowed(filename),
    };
  }
  let kind: AttachmentKind;
  if (claimed) {
    const matches = ATTACHMENT_KINDS[claimed].text ? sniffed === "text" : sniffed === claimed;
    if (!matches) return { ok: false, status: 400, error: ATTACHMENT_MESSAGES.mismatch(filename, claimed) };
    kind = claimed;
  } else {
    kind = sniffed === "text" ? "txt" : sniffed;
  }
  return {
    ok: true,
    attachment: {
      filename: withExtension(filename, kind),
      kind,
      contentType: ATTACHMENT_KINDS[kind].contentType,
      bytes: file.bytes,
      size,
    },
  };
}

/**
 * The checks a message's files pass by their names and sizes alone, before any byte is read: at most
 * five, none empty, none over 10 MB. The page runs them in the browser before sending (a refused file
 * then costs no upload), the server again before reading the bytes; `checkAttachments` then checks the
 * bytes themselves.
 */
export function filesProblem(
  files: ReadonlyArray<{ name: string; size: number }>,
): { status: 400 | 413; error: string } | null {
  if (files.length > MAX_ATTACHMENTS_PER_MESSAGE) return { status: 400, error: ATTACHMENT_MESSAGES.tooMany };
  for (const file of files) {
    if (file.size === 0)
      return { status: 400, error: ATTACHMENT_MESSAGES.empty(sanitizeFilename(file.name)) };
    if (file.size > ATTACHMENT_MAX_BYTES)
      return { status: 413, error: ATTACHMENT_MESSAGES.tooLarge(sanitizeFilename(file.name)) };
  }
  return null;
}

export type AttachmentsCheck =
  | { ok: true; attachments: CheckedAttachment[] }
  | { ok: false; status: 400 | 413; error: string };

/** Checks a message's files: at most five, each as `checkAttachment`; the first problem wins. */
export function checkAttachments(files: readonly IncomingFile[]): AttachmentsCheck {
  if (files.length > MAX_ATTACHMENTS_PER_MESSAGE)
    return { ok: false, status: 400, error: ATTACHMENT_MESSAGES.tooMany };
  const attachments: CheckedAttachment[] = [];
  for (const file of files) {
    const checked = checkAttachment(file);
    if (!checked.ok) return checked;
    attachments.push(checked.attachment);
  }
  return { ok: true, attachments };
}

/** `attachment; filename="…"; filename*=UTF-8''…`: an ASCII fallback and the exact name. */
export function contentDisposition(filename: string): string {
  let ascii = filename
    .normalize("NFKD")
    .replace(/[^\x20-\x7e]/g, "")
    .replace(/["\\]/g, "_")
    .trim();
  // A name of only non-ASCII letters leaves its extension at most.
  if (!ascii || ascii.startsWith(".")) ascii = `attachment${ascii}`;
  const encoded = encodeURIComponent(filename).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/**
 * The headers a download is served with: always a download (never shown inline), the stored type with
 * nosniff (the browser may not guess another), nothing cached by shared caches, and a CSP that lets the
 * file run nothing should a browser open it anyway.
 */
export function attachmentHeaders(a: {
  filename: string;
  contentType: string;
  size: number;
}): Record<string, string> {
  return {
    "Content-Type": a.contentType,
    "Content-Length": String(a.size),
    "Content-Disposition": contentDisposition(a.filename),
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "private, no-store",
    "Content-Security-Policy": "default-src 'none'; sandbox",
  };
}
