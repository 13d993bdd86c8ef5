import { type ReactNode, Suspense } from "react";
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useMatches,
  data as withHeaders,
} from "react-router";
import { ChatMount } from "~/features/chat/ChatMount";
import { CurrencyProvider } from "~/features/currency/CurrencyContext";
import { Header } from "~/features/site/Header";
import { PageMain, useShowChrome } from "~/features/site/page-main";
import { useOptionalRootData } from "~/features/site/root-data";
import { loadRootData } from "~/features/site/root-data.server";
import { Container } from "~/ui/container";
import { lazyChunk } from "~/ui/lazy-chunk";
import { ownsMainLandmark } from "~/ui/main-landmark";
import type { Route } from "./+types/root";
import stylesheet from "./app.css?url";

// Chunks of their own, not part of the JavaScript a page needs before it is interactive (the server still
// renders them into the document). Both are requested at once when the document holds them; hydration
// waits for the 404's, not for the footer's, which every page has (docs/decisions/0108-chunks-before-hydration.md).
const NotFoundContent = lazyChunk(
  () => import("~/features/site/NotFound").then((m) => m.NotFoundContent),
  () => document.querySelector("[data-not-found]") !== null,
);
const Footer = lazyChunk(
  () => import("~/features/site/Footer").then((m) => m.Footer),
  () => document.querySelector("body > footer") !== null,
  false,
);

export async function loader({ context, request }: Route.LoaderArgs) {
  const { data, setCookie } = await loadRootData(request, context);
  // Only pages that looked up the session set it: a shared page's answer stays storable (ADR 0822).
  return setCookie ? withHeaders(data, { headers: { "Set-Cookie": setCookie } }) : data;
}

export const links: Route.LinksFunction = () => [
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export function Layout({ children }: { children: ReactNode }) {
  const data = useOptionalRootData();
  const showChrome = useShowChrome();
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#1d5fd6" />
        {/* The stylesheet is a file of its own, hashed and cached (docs/decisions/0821-fewer-bytes-icon-sprite.md):
            inline, its 47 KB were more than half of most documents, paid again on every full page load.
            With a precedence React owns it as a resource (first in <head>, matched by its URL when
            hydrating); as a plain element among the head's hoisted tags it failed to hydrate. */}
        <link rel="stylesheet" href={stylesheet} precedence="default" />
        <Meta />
        <Links />
      </head>
      <body className="min-h-screen bg-white font-sans text-ink antialiased">
        <a
          href="#main"
          className="sr-only z-50 rounded-md bg-white px-4 py-2 font-semibold text-brand-700 focus:not-sr-only focus:fixed focus:left-4 focus:top-4"
        >
          Skip to content
        </a>
        {/* The header inside the currency's provider: on a shared page its after-load answer may correct
            the currency (ADR 0822). */}
        <CurrencyProvider value={data?.currency}>
          {showChrome && data && <Header businessName={data.business.name} />}
          {/* The main landmark is the page's (App or ErrorBoundary below): a layout with its own navigation
              (portal shell, back office) puts it after that navigation, around its pages only. */}
          {children}
        </CurrencyProvider>
        {showChrome && data && (
          <Suspense fallback={null}>
            <Footer business={data.business} />
          </Suspense>
        )}
        {showChrome && <ChatMount />}
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

export default function App() {
  const layoutOwnsMain = useMatches().some((match) => ownsMainLandmark(match.handle));
  return layoutOwnsMain ? (
    <Outlet />
  ) : (
    <PageMain>
      <Outlet />
    </PageMain>
  );
}

// It replaces every layout below the root (their navigation included), so its page is always its own main.
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <PageMain>
      <ErrorContent error={error} />
    </PageMain>
  );
}

function ErrorContent({ error }: { error: unknown }) {
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <Suspense fallback={null}>
        <NotFoundContent />
      </Suspense>
    );
  }
  // A thrown error (a bug, or the database being unavailable: the server then answers 503) shows no
  // number: the browser only sees a sanitised error and the status is the HTTP answer's.
  const status = isRouteErrorResponse(error) ? error.status : null;
  return (
    <Container className="py-24 text-center">
      {status && <p className="text-sm font-semibold text-brand-700">Error {status}</p>}
      <h1 className="mt-2 text-3xl font-bold">Something went wrong</h1>
      <p className="mt-4 text-slate-600">
        {isRouteErrorResponse(error) && error.status < 500
          ? String(error.data || error.statusText)
          : "We could not complete this request. Please try again in a moment."}
      </p>
      <a href="/" className="mt-8 inline-block font-semibold text-brand-700 underline">
        Return to Home
      </a>
    </Container>
  );
}
