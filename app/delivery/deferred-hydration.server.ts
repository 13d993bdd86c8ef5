/**
 * The page's scripts are requested once the document has been parsed
 * (docs/decisions/0811-scripts-after-parsing.md).
 *
 * React Router's `<Scripts />` writes a `modulepreload` link for every script of the page and an inline
 * module script that imports them and starts hydration. On a slow connection those ~130 KB (gzip) of
 * JavaScript share the link with the document itself, and the browser fetches them at high priority
 * while it is still receiving and painting the HTML: the first paint waits for bytes it does not need.
 * The page is complete without them (it is server-rendered, forms work without JavaScript, and what is
 * typed before hydration is kept), so this rewrites the finished document: the links and the module
 * script become one small inline script that adds them at `DOMContentLoaded` (at once if it has already
 * fired). Same scripts, same order, same nonce; only after the HTML. Added then, they still delay the
 * window's `load` event, so the page is hydrating by `load` as before.
 *
 * Applied to the whole document in entry.server.tsx (rendered with `onAllReady`, so it is complete), and
 * therefore to the cached public pages as well.
 */

/** What the document is searched for: ASCII, so a search of its UTF-8 bytes finds exactly these. */
const MODULE_TYPE = Buffer.from(' type="module" async="">');
const SCRIPT_OPEN = Buffer.from("<script");
const SCRIPT_CLOSE = Buffer.from("</script>");
const PRELOAD = Buffer.from('<link rel="modulepreload" href="');
const QUOTE = 0x22;
const TAG_END = Buffer.from("/>");
const HEAD_END = Buffer.from("</head>");
const NONCE_ATTRIBUTE = /^(?: nonce="[^"]*")?$/;

/** JSON that is safe inside an inline script: no `</script>` or `<!--` can close or confuse it. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replaceAll("<", "\\u003c")
    .replaceAll("\u2028", "\\u2028")
    .replaceAll("\u2029", "\\u2029");
}

/** The loader: classic inline script, so it runs during parsing, and does nothing until the parse ends. */
function loader(preloads: string[], moduleCode: string): string {
  return (
    "(function(){var d=document,n=d.currentScript.nonce," +
    `p=${scriptJson(preloads)},c=${scriptJson(moduleCode)};` +
    'function go(){p.forEach(function(h){var l=d.createElement("link");l.rel="modulepreload";l.href=h;' +
    'd.head.appendChild(l)});var s=d.createElement("script");s.type="module";s.nonce=n;s.textContent=c;' +
    "d.head.appendChild(s)}" +
    'd.readyState==="loading"?d.addEventListener("DOMContentLoaded",go,{once:true}):go()})()'
  );
}

/**
 * The document (its UTF-8 bytes) with its hydration scripts deferred until it is parsed; the same bytes
 * when it has no module script (nothing to hydrate).
 *
 * Found with a few byte searches rather than regular expressions over the whole text (ADR 0820): the
 * module script is the document's last (React Router writes it near the end of the body), so it is
 * searched for from the end; React hoists every `<link rel="modulepreload">` into the head, so they are
 * searched for there only. The document is never decoded as a whole: only the links' addresses and the
 * module's code are.
 */
export function deferHydrationOf(doc: Buffer): Buffer {
  const type = doc.lastIndexOf(MODULE_TYPE);
  if (type === -1) return doc;
  const open = doc.lastIndexOf(SCRIPT_OPEN, type);
  const codeStart = type + MODULE_TYPE.length;
  const close = doc.indexOf(SCRIPT_CLOSE, codeStart);
  if (open === -1 || close === -1) return doc;
  // Between `<script` and ` type=`: the nonce attribute, if any (anything else is not React Router's).
  const nonceAttribute = doc.toString("latin1", open + SCRIPT_OPEN.length, type);
  if (!NONCE_ATTRIBUTE.test(nonceAttribute)) return doc;
  const code = doc.toString("utf8", codeStart, close);

  const headEnd = doc.indexOf(HEAD_END);
  const head = doc.subarray(0, headEnd === -1 || headEnd > open ? open : headEnd);
  const parts: Buffer[] = [];
  const preloads: string[] = [];
  let from = 0;
  for (let at = head.indexOf(PRELOAD); at !== -1; at = head.indexOf(PRELOAD, from)) {
    const href = at + PRELOAD.length;
    const hrefEnd = head.indexOf(QUOTE, href);
    const end = hrefEnd === -1 ? -1 : head.indexOf(TAG_END, hrefEnd);
    if (end === -1) break;
    preloads.push(head.toString("utf8", href, hrefEnd));
    parts.push(doc.subarray(from, at));
    from = end + TAG_END.length;
  }
  parts.push(
    doc.subarray(from, open),
    Buffer.from(`<script${nonceAttribute}>${loader(preloads, code)}</script>`),
    doc.subarray(close + SCRIPT_CLOSE.length),
  );
  return Buffer.concat(parts);
}

/** deferHydrationOf for a document held as text. */
export function deferHydration(html: string): string {
  const doc = Buffer.from(html);
  const deferred = deferHydrationOf(doc);
  return deferred === doc ? html : deferred.toString("utf8");
}

/** The loader's module code in a served document (JSON-encoded in the loader's text), for `codeOfLoaders`. */
const LOADER_CODE = /,c=("(?:[^"\\]|\\.)*");function go\(\)/g;

/**
 * The module scripts the loaders of a document will insert, as their text. A page served with a CSP that
 * allows scripts by hash rather than by nonce (a cached page, ADR 0800) must list these too: the loader
 * inserts an inline script at run time, and the browser checks it like any inline script.
 */
export function codeOfLoaders(html: string): string[] {
  return [...html.matchAll(LOADER_CODE)].map(([, json]) => JSON.parse(json!) as string);
}
