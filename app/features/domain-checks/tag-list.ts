/**
 * A tag=value list, as DKIM key records (RFC 6376 §3.2) and DMARC records (RFC 7489 §6.4) write them:
 * `v=DMARC1; p=reject`. Pure: each format judges its own tags.
 */
export type TagList =
  | { ok: true; tags: Array<{ name: string; value: string }> }
  | { ok: false; part: string };

/** The tags in order (names lower-cased, values as written), or the first part that is not a tag. */
export function parseTagList(record: string): TagList {
  const tags: Array<{ name: string; value: string }> = [];
  for (const part of record.split(";").map((p) => p.trim())) {
    if (part === "") continue;
    const match = /^([a-z]+)\s*=\s*(.*)$/is.exec(part);
    if (!match) return { ok: false, part };
    tags.push({ name: match[1]!.toLowerCase(), value: match[2]! });
  }
  return { ok: true, tags };
}
