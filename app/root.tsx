import { lazy, type ReactNode, Suspense } from "react";
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLocation,
} from "react-router";
import { ChatMount } from "~/features/chat/ChatMount";
import { CurrencyProvider } from "~/features/currency/CurrencyContext";
import { isChromeHidden } from "~/features/site/chrome";
import { Header } from "~/features/site/Header";
import { InlineStyleSheet } from "~/features/site/inline-styles";
import { useOptionalRootData } from "~/features/site/root-data";
import { loadRootData } from "~/features/site/root-data.server";
import { Container } from "~/ui/container";
import type { Route } from "./+types/root";

// Below the fold on every page: its own chunk, so it is not part of the JavaScript a page needs before
// it is interactive (the server still renders it into the document).
const NotFoundContent = lazy(() =>
  import("~/features/site/NotFound").then((m) => ({ default: m.NotFoundContent })),
);
const Footer = lazy(() => import("~/features/site/Footer").then((m) => ({ default: m.Footer })));

export const loader = ({ context, request }: Route.LoaderArgs) => loadRootData(request, context);

export const links: Route.LinksFunction = () => [
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export function Layout({ children }: { children: ReactNode }) {
  const data = useOptionalRootData();
  const { pathname } = useLocation();
  const showChrome = Boolean(data) && !isChromeHidden(pathname);
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#1d5fd6" />
        <InlineStyleSheet />
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
        {showChrome && data && <Header businessName={data.business.name} user={data.user} />}
        <main id="main" tabIndex={-1} className={showChrome ? "pt-16" : undefined}>
          <CurrencyProvider value={data?.currency}>{children}</CurrencyProvider>
        </main>
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
  return <Outlet />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
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
