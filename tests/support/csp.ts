/**
 * Checks a page against its Content-Security-Policy the way a browser would for scripts: every inline
 * script it would run (JSON-LD is data) must be allowed by the policy's nonce or by its hash.
 */
import { createHash } from "node:crypto";
import { codeOfLoaders } from "~/delivery/deferred-hydration.server";

export interface ScriptPolicy {
  nonce: string | null;
  hashes: string[];
  /** Inline scripts a browser would run, with their attributes; with those the hydration loader inserts
   * after parsing (they get the loader's nonce). */
  inline: { attrs: string; text: string }[];
  /** Inline scripts the policy would block. */
  blocked: string[];
}

export function scriptPolicy(csp: string, html: string): ScriptPolicy {
  const scriptSrc = csp.split(";").find((d) => d.trim().startsWith("script-src")) ?? "";
  const nonce = /'nonce-([^']+)'/.exec(scriptSrc)?.[1] ?? null;
  const hashes = [...scriptSrc.matchAll(/'(sha256-[A-Za-z0-9+/=]+)'/g)].map((m) => m[1]!);
  const inline = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)]
    .map(([, attrs = "", text = ""]) => ({ attrs, text }))
    .filter(({ attrs }) => !/\ssrc=/.test(attrs) && !/application\/ld\+json/.test(attrs));
  for (const text of codeOfLoaders(html)) {
    const loader = inline.find((s) => s.text.includes("d.currentScript.nonce"));
    inline.push({ attrs: loader?.attrs ?? "", text });
  }
  const blocked = inline
    .filter(({ attrs, text }) => {
      if (nonce && attrs.includes(`nonce="${nonce}"`)) return false;
      const hash = `sha256-${createHash("sha256").update(text, "utf8").digest("base64")}`;
      return !hashes.includes(hash);
    })
    .map(({ text }) => text.slice(0, 80));
  return { nonce, hashes, inline, blocked };
}
