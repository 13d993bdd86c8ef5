import { StrictMode, startTransition } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";

/**
 * React Router's default entry, except that hydration first waits for the server-rendered chunks the
 * route modules (imported before this one) asked for: app/ui/lazy-chunk.tsx and its HOLDS, read here
 * through the global symbol so that this entry imports nothing more.
 */
const holds = (globalThis as { [key: symbol]: Promise<unknown>[] | undefined })[
  Symbol.for("portico.chunksBeforeHydration")
];
void Promise.allSettled(holds ?? []).then(() => {
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <HydratedRouter />
      </StrictMode>,
    );
  });
});
