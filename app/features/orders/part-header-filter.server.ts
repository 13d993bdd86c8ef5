/**
 * Browsers send a file's name as the OS gives it, control characters included (only CR, LF and `"` are
 * escaped), and busboy refuses a part header with one ("Malformed part header"): the whole form would be
 * lost for one odd name. This filter drops control characters (not CR, LF or TAB) from part headers
 * only, on the way to busboy; a part's content, between its headers' end and the next boundary, passes
 * untouched. The stored name drops them anyway (attachments.ts sanitizeFilename).
 */
import { Transform, type TransformCallback } from "node:stream";

/** A pattern searched for across chunks (Knuth–Morris–Pratt). */
class Matcher {
  private readonly failure: number[];
  private matched = 0;
  constructor(private readonly pattern: Buffer) {
    this.failure = new Array(pattern.length).fill(0);
    for (let i = 1, k = 0; i < pattern.length; i++) {
      while (k > 0 && pattern[i] !== pattern[k]) k = this.failure[k - 1]!;
      if (pattern[i] === pattern[k]) k++;
      this.failure[i] = k;
    }
  }
  /** Takes one byte; true when the pattern has just been completed. */
  step(byte: number): boolean {
    while (this.matched > 0 && byte !== this.pattern[this.matched])
      this.matched = this.failure[this.matched - 1]!;
    if (byte === this.pattern[this.matched]) this.matched++;
    if (this.matched === this.pattern.length) {
      this.matched = 0;
      return true;
    }
    return false;
  }
  reset(): void {
    this.matched = 0;
  }
}

const isDroppedControl = (b: number) => (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d) || b === 0x7f;

export function partHeaderFilter(boundary: string): Transform {
  const headersEnd = new Matcher(Buffer.from("\r\n\r\n"));
  const nextBoundary = new Matcher(Buffer.from(`\r\n--${boundary}`));
  // The preamble and the first part's headers come first.
  let inHeaders = true;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      let start = 0;
      const parts: Buffer[] = [];
      for (let i = 0; i < chunk.length; i++) {
        const b = chunk[i]!;
        if (inHeaders) {
          if (isDroppedControl(b)) {
            parts.push(chunk.subarray(start, i));
            start = i + 1;
            continue;
          }
          if (headersEnd.step(b)) {
            inHeaders = false;
            nextBoundary.reset();
          }
        } else if (nextBoundary.step(b)) {
          inHeaders = true;
          headersEnd.reset();
        }
      }
      if (parts.length === 0) return callback(null, chunk);
      parts.push(chunk.subarray(start));
      callback(null, Buffer.concat(parts));
    },
  });
}
