import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { codeOfLoaders, deferHydration, deferHydrationOf } from "./deferred-hydration.server";

const DOC =
  '<!DOCTYPE html><html><head><link rel="modulepreload" href="/assets/entry.client-a.js" nonce="N1"/>' +
  '<link rel="modulepreload" href="/assets/framework-b.js" nonce="N1"/></head><body><main>Hi</main>' +
  '<script nonce="N1">window.__reactRouterContext = {};</script>' +
  '<script nonce="N1" type="module" async="">;\nimport * as route0 from "/assets/root-c.js";\n' +
  'window.__x = "</scr" + "ipt>";\nimport("/assets/entry.client-a.js");</script>' +
  '<script nonce="N1">window.__reactRouterContext.streamController.close();</script></body></html>';

/** Runs the loader in a fake document and returns what it appended to <head>. */
function runLoader(html: string, readyState: string) {
  const code = /<script nonce="N1">(\(function[\s\S]*?)<\/script>/.exec(html)?.[1];
  expect(code).toBeTruthy();
  const appended: Record<string, unknown>[] = [];
  const listeners: Record<string, () => void> = {};
  const document = {
    readyState,
    currentScript: { nonce: "N1" },
    head: { appendChild: (el: Record<string, unknown>) => appended.push(el) },
    createElement: (tag: string) => ({ tag }),
    addEventListener: (type: string, fn: () => void) => {
      listeners[type] = fn;
    },
  };
  runInNewContext(code!, { document });
  return { appended, listeners };
}

describe("deferHydration", () => {
  it("takes the modulepreload links and the module script out of the document", () => {
    const html = deferHydration(DOC);
    expect(html).not.toContain('<link rel="modulepreload"');
    expect(html).not.toMatch(/<script[^>]*type="module"/);
    // The inline context scripts stay where they were, and the page itself is untouched.
    expect(html).toContain('<script nonce="N1">window.__reactRouterContext = {};</script>');
    expect(html).toContain("streamController.close()");
    expect(html).toContain("<main>Hi</main>");
    // No "<" inside the loader, so nothing in the module's text can close the script element.
    const loader = /<script nonce="N1">(\(function[\s\S]*?)<\/script>/.exec(html)?.[1] ?? "";
    expect(loader).not.toContain("<");
  });

  it("adds the same preloads and module script, with the nonce, only once the document is parsed", () => {
    const { appended, listeners } = runLoader(deferHydration(DOC), "loading");
    expect(appended).toEqual([]);
    listeners.DOMContentLoaded!();
    expect(appended).toEqual([
      { tag: "link", rel: "modulepreload", href: "/assets/entry.client-a.js" },
      { tag: "link", rel: "modulepreload", href: "/assets/framework-b.js" },
      {
        tag: "script",
        type: "module",
        nonce: "N1",
        textContent:
          ';\nimport * as route0 from "/assets/root-c.js";\nwindow.__x = "</scr" + "ipt>";\nimport("/assets/entry.client-a.js");',
      },
    ]);
  });

  it("starts at once when the document has already been parsed", () => {
    for (const state of ["interactive", "complete"]) {
      const { appended } = runLoader(deferHydration(DOC), state);
      expect(appended.map((el) => el.tag)).toEqual(["link", "link", "script"]);
    }
  });

  it("tells which module code the loader will insert (a hash-based CSP must allow it)", () => {
    const { appended } = runLoader(deferHydration(DOC), "complete");
    expect(codeOfLoaders(deferHydration(DOC))).toEqual([appended[2]!.textContent]);
    expect(codeOfLoaders(DOC)).toEqual([]);
  });

  it("keeps every character of the page and of the module's code (the document's bytes are UTF-8)", () => {
    const doc = DOC.replace("<main>Hi</main>", "<main>Café — 10 €, 北京 ✓</main>").replace(
      'window.__x = "</scr" + "ipt>";',
      'window.__x = "Grüße ✓";',
    );
    const html = deferHydration(doc);
    expect(html).toContain("<main>Café — 10 €, 北京 ✓</main>");
    expect(html).not.toContain('<link rel="modulepreload"');
    const { appended } = runLoader(html, "complete");
    expect(appended[2]!.textContent).toContain('window.__x = "Grüße ✓";');
    expect(deferHydrationOf(Buffer.from(doc)).toString("utf8")).toBe(html);
  });

  it("leaves a document without a module script as it is", () => {
    const html = "<!DOCTYPE html><html><body><p>No scripts</p></body></html>";
    expect(deferHydration(html)).toBe(html);
  });
});
