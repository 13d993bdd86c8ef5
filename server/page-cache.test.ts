/**
 * The pure parts of the cached-answer fast path (ADR 0800): which content coding a request gets, which
 * inline scripts a page's CSP must allow by hash, and what is refused rather than stored.
 */
import { createHash } from "node:crypto";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { deferHydration } from "~/delivery/deferred-hydration.server";
import { inlineScriptHashes, preferredEncoding, prepareAnswer } from "./page-cache";

const sha = (text: string) => `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
const NONCE = "c29tZS1ub25jZS0xMjM0NQ==";
const CSP = `default-src 'self';script-src 'self' 'nonce-${NONCE}';style-src 'self';frame-ancestors 'none'`;

describe("preferredEncoding", () => {
  it.each([
    [undefined, "identity"],
    ["", "identity"],
    ["gzip", "gzip"],
    ["gzip, deflate, br, zstd", "br"],
    ["br;q=0.5, gzip", "gzip"],
    ["gzip;q=0, br;q=0", "identity"],
    ["br;q=0", "identity"],
    ["*", "br"],
    ["*;q=0.1, br;q=0", "gzip"],
    ["identity", "identity"],
    ["GZIP", "gzip"],
    ["x-gzip", "gzip"],
    ["gzip ; q = 0.8 , br ; q=0.9", "br"],
  ])("%j → %s", (header, expected) => {
    expect(preferredEncoding(header)).toBe(expected);
  });
});

describe("inlineScriptHashes", () => {
  it("hashes the exact text of each runnable inline script, once each", () => {
    const html = [
      "<script>a()</script>",
      '<script type="module">import("/x.js")</script>',
      "<script>a()</script>",
      '<script type="application/ld+json">{"@type":"Thing"}</script>',
      '<script src="/assets/x.js"></script>',
      '<script type="module" src="/assets/y.js"></script>',
      "<script>\n  multi\n  line\n</script>",
    ].join("");
    expect(inlineScriptHashes(html)).toEqual([
      sha("a()"),
      sha('import("/x.js")'),
      sha("\n  multi\n  line\n"),
    ]);
  });

  it("also hashes the module script the hydration loader inserts after parsing (ADR 0811)", () => {
    const code = 'import * as r from "/assets/root.js";\nimport("/assets/entry.client.js");';
    const page = deferHydration(
      `<html><head><link rel="modulepreload" href="/assets/root.js"/></head><body>` +
        `<script type="module" async="">${code}</script></body></html>`,
    );
    const loader = /<script>([\s\S]*?)<\/script>/.exec(page)![1]!;
    expect(inlineScriptHashes(page)).toEqual([sha(loader), sha(code)]);
  });
});

describe("prepareAnswer", () => {
  const page = `<html><head><script nonce="${NONCE}">boot()</script></head><body><p>Hi</p><script nonce="${NONCE}">more()</script></body></html>`;

  it("takes the nonce out of the page and its CSP, allowing the inline scripts by their hashes", async () => {
    const answer = await prepareAnswer(
      [
        ["content-security-policy", CSP],
        ["content-type", "text/html; charset=utf-8"],
      ],
      page,
      NONCE,
      true,
    );
    expect(answer).not.toBeNull();
    const headers = new Map<string, string>();
    for (let i = 0; i < answer!.headers.length; i += 2)
      headers.set(answer!.headers[i]!, answer!.headers[i + 1]!);
    expect(headers.get("content-security-policy")).toBe(
      `default-src 'self';script-src 'self' ${sha("boot()")} ${sha("more()")};style-src 'self';frame-ancestors 'none'`,
    );
    expect(headers.get("ETag")).toBe(answer!.etag);
    expect(headers.get("Vary")).toBe("Accept-Encoding");
    const html = zlib.gunzipSync(answer!.gzip).toString();
    expect(html).toBe(page.replaceAll(` nonce="${NONCE}"`, ""));
    expect(zlib.brotliDecompressSync(answer!.br).toString()).toBe(html);
  });

  it("leaves a JSON answer's body alone and its CSP without the nonce", async () => {
    const answer = await prepareAnswer(
      [
        ["content-security-policy", CSP],
        ["content-type", "application/json"],
      ],
      '{"a":1}',
      NONCE,
      false,
    );
    expect(answer!.headers[1]).toBe(
      "default-src 'self';script-src 'self';style-src 'self';frame-ancestors 'none'",
    );
    expect(zlib.gunzipSync(answer!.gzip).toString()).toBe('{"a":1}');
    // An API answer with a file's policy (no nonce at all) is kept as it is.
    const api = await prepareAnswer([["content-security-policy", "default-src 'none'"]], "{}", "", false);
    expect(api!.headers.slice(0, 2)).toEqual(["content-security-policy", "default-src 'none'"]);
  });

  it("refuses what it does not understand rather than storing it", async () => {
    const headers: [string, string][] = [["content-security-policy", CSP]];
    // A page rendered without this response's nonce.
    expect(await prepareAnswer(headers, "<script>x()</script>", NONCE, true)).toBeNull();
    // The nonce somewhere else than a nonce attribute (a page that would leak it).
    expect(await prepareAnswer(headers, `${page}<p>${NONCE}</p>`, NONCE, true)).toBeNull();
    // A CSP without this nonce, or no CSP at all.
    expect(
      await prepareAnswer([["content-security-policy", "script-src 'self'"]], page, NONCE, true),
    ).toBeNull();
    expect(await prepareAnswer([["content-type", "text/html"]], page, NONCE, true)).toBeNull();
    expect(await prepareAnswer(headers, page, "", true)).toBeNull();
  });
});
