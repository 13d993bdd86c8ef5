import { createContext, useContext } from "react";

/**
 * The site's stylesheet, inlined into every document's <head> (docs/decisions/0810-css-inline-and-lazy-client-code.md):
 * no render-blocking request, and nothing queued before it. entry.server.tsx provides the compiled CSS
 * (the CSP allows it by its hash); in the browser the element the server sent is kept as it is, so the
 * stylesheet is never part of the JavaScript.
 */
const InlineStylesContext = createContext<string | null>(null);
export const InlineStylesProvider = InlineStylesContext.Provider;

const STYLE_ID = "portico-css";

let browserCss: string | undefined;
/** What the server put in the document (read once; client-side navigations keep the same element). */
function cssInDocument(): string {
  browserCss ??= document.getElementById(STYLE_ID)?.textContent ?? "";
  return browserCss;
}

export function InlineStyleSheet() {
  const serverCss = useContext(InlineStylesContext);
  return (
    <style
      id={STYLE_ID}
      suppressHydrationWarning
      // biome-ignore lint/security/noDangerouslySetInnerHtml: our own compiled stylesheet, not user input.
      dangerouslySetInnerHTML={{ __html: serverCss ?? cssInDocument() }}
    />
  );
}
