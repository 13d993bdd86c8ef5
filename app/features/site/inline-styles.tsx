import { createContext, useContext } from "react";

/**
 * The site's stylesheet, inlined into every document's <head> (docs/decisions/0810-css-inline-and-lazy-client-code.md):
 * no render-blocking request, and nothing queued before it. entry.server.tsx provides the compiled CSS
 * and the response's CSP nonce; in the browser the element the server sent is kept as it is, so the
 * stylesheet is never part of the JavaScript.
 */
export interface InlineStyles {
  css: string;
  nonce: string | undefined;
}

const InlineStylesContext = createContext<InlineStyles | null>(null);
export const InlineStylesProvider = InlineStylesContext.Provider;

const STYLE_ID = "portico-css";

let browserCss: string | undefined;
/** What the server put in the document (read once; client-side navigations keep the same element). */
function cssInDocument(): string {
  browserCss ??= document.getElementById(STYLE_ID)?.textContent ?? "";
  return browserCss;
}

export function InlineStyleSheet() {
  const server = useContext(InlineStylesContext);
  const css = server ? server.css : cssInDocument();
  return (
    <style
      id={STYLE_ID}
      // The browser hides a nonce once the element is parsed; the server's value stands.
      nonce={server?.nonce}
      suppressHydrationWarning
      // biome-ignore lint/security/noDangerouslySetInnerHtml: our own compiled stylesheet, not user input.
      dangerouslySetInnerHTML={{ __html: css }}
    />
  );
}
