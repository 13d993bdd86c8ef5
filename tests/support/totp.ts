/**
 * TOTP codes for tests, computed from the key the setup page shows (RFC 6238 over RFC 4226: HMAC-SHA1,
 * 30-second steps, 6 digits), independently of the code under test.
 */
import { createHmac } from "node:crypto";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

export function base32Decode(text: string): Buffer {
  const clean = text.replace(/[\s=]/g, "").toUpperCase();
  const bytes: number[] = [];
  let bits = 0;
  let value = 0;
  for (const char of clean) {
    const index = ALPHABET.indexOf(char);
    if (index < 0) throw new Error(`not base32: ${char}`);
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(bytes);
}

/** The code for the base32 `secret` at `time` (ms), `offset` steps away. */
export function totp(secret: string, time = Date.now(), offset = 0): string {
  const counter = Math.floor(time / 1000 / 30) + offset;
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const hmac = createHmac("sha1", base32Decode(secret)).update(message).digest();
  const start = hmac[hmac.length - 1]! & 0x0f;
  const binary = hmac.readUInt32BE(start) & 0x7fffffff;
  return String(binary % 1_000_000).padStart(6, "0");
}

/**
 * A 6-digit code that is wrong now (not the code of this step or its neighbours); `index` gives a
 * different one each time (the server refuses a code it has already seen, before counting it).
 */
export function wrongCode(secret: string, index = 0, time = Date.now()): string {
  const valid = new Set([-2, -1, 0, 1, 2].map((o) => totp(secret, time, o)));
  for (let n = index * 10; ; n++) {
    const candidate = String((123456 + n * 7919) % 1_000_000).padStart(6, "0");
    if (!valid.has(candidate)) return candidate;
  }
}

/** The TOTP key the two-factor setup page shows. */
export function secretIn(html: string): string {
  const match = /data-testid="totp-secret"[^>]*>([^<]+)</.exec(html);
  if (!match) throw new Error("no TOTP key on the page");
  return match[1]!.replace(/\s+/g, "");
}

/** The backup codes a page shows once (none when it shows none). */
export function backupCodesIn(html: string): string[] {
  const list = /data-testid="backup-codes"[^>]*>(.*?)<\/ul>/s.exec(html);
  if (!list) return [];
  return [...list[1]!.matchAll(/<li>([^<]+)<\/li>/g)].map((m) => m[1]!);
}
