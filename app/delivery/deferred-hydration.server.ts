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

const PRELOAD = /<link rel="modulepreload" href="([^"]+)"[^>]*\/>/g;
const MODULE_SCRIPT = /<script( nonce="[^"]*")? type="module" async="">([\s\S]*?)<\/script>/;

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
 * The document with its hydration scripts deferred until it is parsed; unchanged when it has no module
 * script (nothing to hydrate).
 */
export function deferHydration(html: string): string {
  const script = MODULE_SCRIPT.exec(html);
  if (!script) return html;
  const [whole, nonceAttribute = "", code = ""] = script;
  const preloads = [...html.matchAll(PRELOAD)].map(([, href]) => href!);
  const withoutPreloads = html.replaceAll(PRELOAD, "");
  return withoutPreloads.replace(whole, () => `<script${nonceAttribute}>${loader(preloads, code)}</script>`);
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
