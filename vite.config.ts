import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

/**
 * Browser chunks (docs/decisions/0101-home-js-budget-and-lazy-chunks.md): React, React DOM and React
 * Router are one chunk, and the small modules every page shares (UI primitives, root data, currency
 * display, the icon component) another, instead of a dozen files under a kilobyte each, which cost a
 * request and gzip's per-file overhead apiece.
 */
const SHARED = [
  // The primitives of every page, public ones included; the signed-in pages' kit (lists, shell, badges,
  // cards, toasts: docs/decisions/0106-list-kit.md) chunks with those pages, off the home page's budget.
  /app[\\/]ui[\\/](button|card-class|cn|container|drawer|field|icon|lazy-chunk|main-landmark|tabs|use-hydrated)\./,
  /app[\\/]features[\\/]site[\\/](root-data|seo|meta|SectionLink|JsonLd|use-section-link|chrome)\./,
  /app[\\/]features[\\/]currency[\\/](currency|CurrencyContext|currency-store|Price)\./,
  /app[\\/]features[\\/](business[\\/]business|catalogue[\\/]catalogue)\./,
];

const clientChunks = {
  groups: [
    {
      name: "framework",
      test: /node_modules[\\/](react|react-dom|react-router|scheduler|cookie|set-cookie-parser)[\\/]/,
    },
    {
      name: "shared",
      test: (id: string) => SHARED.some((pattern) => pattern.test(id)),
    },
  ],
};

export default defineConfig(({ isSsrBuild }) => ({
  // The server build's entry is our Express app, so the custom server and the
  // React Router build share one module graph (one DB client, one config).
  build: isSsrBuild
    ? // The same CSS target as the browser build: the stylesheet's URL the server writes into pages is
      // then the very file the browser build links (ADR 0821), not a second copy with other fallbacks.
      {
        rollupOptions: {
          input: "./server/app.ts",
          // The browser build splits at the dynamic imports (the password rules, the 404 and the footer
          // load on demand there); the server bundle holds every module anyway, so its warning that a
          // dynamic import "will not move module into another chunk" is expected and says nothing.
          onwarn(warning, warn) {
            if (warning.code !== "INEFFECTIVE_DYNAMIC_IMPORT") warn(warning);
          },
        },
        target: "node20",
        cssTarget: "es2022",
      }
    : { target: "es2022", rolldownOptions: { output: { codeSplitting: clientChunks } } },
  resolve: { alias: { "~": new URL("./app", import.meta.url).pathname } },
  plugins: [tailwindcss(), reactRouter()],
}));
