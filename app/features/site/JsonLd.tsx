import { useContext } from "react";
import { UNSAFE_FrameworkContext } from "react-router";

/** JSON for a `<script>` body: `<` is escaped so no value can close the element. */
export function serializeJsonLd(data: unknown): string {
  return JSON.stringify(data)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

/**
 * Structured data for search engines. React Router's meta `script:ld+json` renders without the CSP
 * nonce, so this renders the script itself with the request's nonce, which React Router keeps in its
 * framework context on the server. Browsers hide nonce values after load, hence the hydration hint.
 */
export function JsonLd({ data }: { data: unknown }) {
  const nonce = useContext(UNSAFE_FrameworkContext)?.nonce;
  return (
    <script
      type="application/ld+json"
      nonce={nonce}
      suppressHydrationWarning
      // biome-ignore lint/security/noDangerouslySetInnerHtml: serialised JSON with `<` escaped.
      dangerouslySetInnerHTML={{ __html: serializeJsonLd(data) }}
    />
  );
}
