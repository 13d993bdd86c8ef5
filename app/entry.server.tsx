import { Transform } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import { renderToPipeableStream } from "react-dom/server";
import type { AppLoadContext, EntryContext, HandleErrorFunction } from "react-router";
import { ServerRouter } from "react-router";
import { deferHydrationOf } from "~/delivery/deferred-hydration.server";

export const streamTimeout = 5_000;

/**
 * Every loader, action and render error: logged as one JSON line with the request id (not React
 * Router's multi-line console output), and sorted so an outage answers 503 (server/react-router.ts).
 * A request the client abandoned is not an error.
 */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return;
  (context as AppLoadContext).reportError(error);
};

/** Collects the finished document and defers its scripts until it is parsed (ADR 0811). */
function deferredHydration(): Transform {
  const chunks: Buffer[] = [];
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      done();
    },
    flush(done) {
      done(null, deferHydrationOf(Buffer.concat(chunks)));
    },
  });
}

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = loadContext.cspNonce;
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    let timedOut = false;
    const { pipe, abort } = renderToPipeableStream(
      <ServerRouter context={routerContext} url={request.url} nonce={nonce} />,
      {
        nonce,
        // Never split a finished Suspense boundary out of the document (React does so for large ones).
        progressiveChunkSize: Number.POSITIVE_INFINITY,
        // Everyone gets the whole document at once, Suspense boundaries (the home page's lazy sections)
        // already filled in: streamed boundaries are revealed by inline scripts, which people without
        // JavaScript never run. The loaders have all finished by now, so streaming would gain little.
        onAllReady() {
          shellRendered = true;
          clearTimeout(timer);
          const body = deferredHydration();
          const stream = createReadableStreamFromReadable(body);
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          resolve(new Response(stream, { headers: responseHeaders, status: responseStatusCode }));
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          if (timedOut && !shellRendered) {
            // A machine too busy to render in time is overloaded, not broken: say so (and log it once).
            if (responseStatusCode < 500) {
              loadContext.logger.warn({ url: request.url, ms: streamTimeout + 1000 }, "render timed out");
            }
            responseStatusCode = 503;
            responseHeaders.set("Retry-After", "5");
            return;
          }
          responseStatusCode = 500;
          // Errors after the shell are reported by the error boundary; log the rest.
          if (shellRendered) loadContext.reportError(error);
        },
      },
    );
    const timer = setTimeout(() => {
      timedOut = true;
      abort();
    }, streamTimeout + 1000);
  });
}
