/**
 * Plain text with its web addresses found, so a page can show them as links without ever treating the
 * text as HTML. Pure: the page renders the parts as text nodes and `<a>` elements (`LinkifiedText`).
 *
 * Only `http://` and `https://` addresses become links (never `javascript:`, `data:`, `mailto:` or a
 * bare `www.`), and only when the URL parser accepts them with a host. An address ends at whitespace,
 * quotes, angle brackets, control or invisible format characters (a right-to-left override could
 * disguise it); trailing punctuation (`.`, `,`, `)` without its `(`, …) is left as text.
 */

export type TextPart = { kind: "text"; text: string } | { kind: "link"; text: string; href: string };

// A candidate: the scheme, then anything up to a character an address cannot carry as written.
const CANDIDATE = /https?:\/\/[^\s<>"'`\p{Cc}\p{Cf}]+/giu;
const TRAILING = /[.,;:!?*_~]$/;
const PAIRS: Readonly<Record<string, string>> = { ")": "(", "]": "[", "}": "{" };

const count = (s: string, ch: string) => s.split(ch).length - 1;

/** Drops trailing punctuation and closing brackets that do not close one opened inside the address. */
function trimEnd(candidate: string): string {
  let url = candidate;
  for (;;) {
    const last = url.at(-1) ?? "";
    const open = PAIRS[last];
    if (TRAILING.test(url)) url = url.slice(0, -1);
    else if (open && count(url, last) > count(url, open)) url = url.slice(0, -1);
    else return url;
  }
}

/**
 * The link's target, or null when it is not an http(s) address that starts with its host: no
 * `http:///x` (the parser would make a host of `x`), no user name or password
 * (`https://bank.example@evil.example` goes to evil.example).
 */
function safeHref(text: string): string | null {
  if (!/^https?:\/\/[^/\\]/i.test(text)) return null;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  if (!url.hostname || url.username || url.password) return null;
  return url.href;
}

/** Splits text into plain parts and http(s) links, in order; joined, the parts' texts are the text. */
export function linkify(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let plain = "";
  let from = 0;
  for (const match of text.matchAll(CANDIDATE)) {
    const start = match.index;
    // "xhttp://…" is not an address that starts here.
    if (start > 0 && /[\p{L}\p{N}_]/u.test(text[start - 1]!)) continue;
    const candidate = trimEnd(match[0]);
    const href = safeHref(candidate);
    if (!href) continue;
    plain += text.slice(from, start);
    if (plain) parts.push({ kind: "text", text: plain });
    plain = "";
    parts.push({ kind: "link", text: candidate, href });
    from = start + candidate.length;
  }
  plain += text.slice(from);
  if (plain) parts.push({ kind: "text", text: plain });
  return parts;
}
