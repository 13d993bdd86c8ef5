import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { LinkifiedText } from "./linkified-text";
import { linkify, type TextPart } from "./linkify";

const links = (text: string) =>
  linkify(text)
    .filter((p): p is Extract<TextPart, { kind: "link" }> => p.kind === "link")
    .map((p) => p.text);

describe("linkify", () => {
  it("leaves text without addresses as one text part, and nothing for nothing", () => {
    expect(linkify("Hello, the server is down.")).toEqual([
      { kind: "text", text: "Hello, the server is down." },
    ]);
    expect(linkify("")).toEqual([]);
  });

  it("finds http and https addresses, in order, the text around them kept as it was", () => {
    const text = "See https://example.com/a?b=1&c=2#d and http://intranet.local:8080/x then";
    const parts = linkify(text);
    expect(parts).toEqual([
      { kind: "text", text: "See " },
      { kind: "link", text: "https://example.com/a?b=1&c=2#d", href: "https://example.com/a?b=1&c=2#d" },
      { kind: "text", text: " and " },
      { kind: "link", text: "http://intranet.local:8080/x", href: "http://intranet.local:8080/x" },
      { kind: "text", text: " then" },
    ]);
    expect(parts.map((p) => p.text).join("")).toBe(text);
    expect(links("https://a.example\nhttps://b.example")).toEqual(["https://a.example", "https://b.example"]);
    expect(links("HTTPS://EXAMPLE.COM/Path")).toEqual(["HTTPS://EXAMPLE.COM/Path"]);
  });

  it("turns no other scheme, and no bare host, into a link", () => {
    for (const text of [
      "javascript:alert(1)",
      "JaVaScRiPt:alert(document.cookie)",
      "data:text/html,<script>alert(1)</script>",
      "mailto:someone@example.com",
      "ftp://files.example.com/x",
      "www.example.com",
      "file:///etc/passwd",
      "vbscript:msgbox(1)",
      "https://",
      "http:///nohost",
      "https://bank.example@evil.example/login",
      "https://user:secret@example.com",
    ]) {
      expect(links(text), text).toEqual([]);
    }
    // A scheme glued to a word does not start an address.
    expect(links("xhttps://evil.example")).toEqual([]);
    expect(links("javascript:https://example.com")).toEqual(["https://example.com"]);
  });

  it("leaves trailing punctuation and unmatched closing brackets outside the link", () => {
    expect(links("Go to https://example.com.")).toEqual(["https://example.com"]);
    expect(links("Really? https://example.com/x?!")).toEqual(["https://example.com/x"]);
    expect(links("(see https://example.com/page)")).toEqual(["https://example.com/page"]);
    expect(links("https://en.wikipedia.org/wiki/Foo_(bar), ok")).toEqual([
      "https://en.wikipedia.org/wiki/Foo_(bar)",
    ]);
    expect(links("[https://example.com/a]")).toEqual(["https://example.com/a"]);
  });

  it("ends an address at quotes, angle brackets, controls and invisible format characters", () => {
    expect(links('"https://example.com/a"><img src=x onerror=alert(1)>')).toEqual(["https://example.com/a"]);
    expect(links("<https://example.com/b>")).toEqual(["https://example.com/b"]);
    expect(links("https://example.com/c\u202Efdp.exe")).toEqual(["https://example.com/c"]);
    expect(links("https://example.com/d\u0000x")).toEqual(["https://example.com/d"]);
  });

  it("gives the parsed address as the target (no quote or space can reach an attribute)", () => {
    const [part] = linkify("https://exa mple.com");
    expect(part).toEqual({ kind: "link", text: "https://exa", href: "https://exa/" });
    const [idn] = linkify("https://bücher.example/ä");
    expect(idn).toMatchObject({ kind: "link", href: "https://xn--bcher-kva.example/%C3%A4" });
  });
});

describe("LinkifiedText", () => {
  it("renders text nodes (escaped) and safe links that open in a new tab", () => {
    const html = renderToStaticMarkup(
      <LinkifiedText text={'<b>hi</b> & see https://example.com/x?a=1&b="2" now'} />,
    );
    expect(html).toBe(
      '&lt;b&gt;hi&lt;/b&gt; &amp; see <a href="https://example.com/x?a=1&amp;b=" target="_blank" rel="noopener noreferrer nofollow" class="font-medium text-brand-700 underline">https://example.com/x?a=1&amp;b=</a>&quot;2&quot; now',
    );
    expect(renderToStaticMarkup(<LinkifiedText text="javascript:alert(1)" />)).toBe("javascript:alert(1)");
  });
});
