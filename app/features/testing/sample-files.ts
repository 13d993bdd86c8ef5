/** Small files of each kind (and a few that are not what they claim), for the attachments' tests. */

/** Bytes from strings (UTF-8) and byte lists, end to end. */
export function bytesOf(...parts: Array<string | number[]>): Uint8Array {
  const chunks = parts.map((p) => (typeof p === "string" ? new TextEncoder().encode(p) : Uint8Array.from(p)));
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

export const SAMPLE_PDF = bytesOf(
  "%PDF-1.7\n%",
  [0xe2, 0xe3, 0xcf, 0xd3],
  "\n1 0 obj\n<<>>\nendobj\n%%EOF\n",
);
export const SAMPLE_PNG = bytesOf([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13], "IHDR");
export const SAMPLE_JPEG = bytesOf([0xff, 0xd8, 0xff, 0xe0, 0, 16], "JFIF", [0]);
export const SAMPLE_ZIP = bytesOf([0x50, 0x4b, 0x03, 0x04, 20, 0, 0, 0], "rest");
/** A Windows executable's first bytes. */
export const SAMPLE_EXE = bytesOf("MZ", [0x90, 0, 3, 0, 0, 0, 4, 0]);
