import { type ComponentType, lazy } from "react";

/**
 * Components split into chunks of their own that the server renders into the document and the browser
 * fetches before it hydrates (docs/decisions/0108-chunks-before-hydration.md).
 *
 * A plain `React.lazy` inside a server-rendered `Suspense` boundary leaves that boundary dehydrated until
 * its chunk arrives. React Router's route discovery (the `/__manifest` fetch made for the page's links
 * right after hydration) updates the router's state in a transition; when that update reached the home
 * page's boundary while it waited for a chunk, the boundary never hydrated, in about one load in twenty
 * on a busy machine (its forms stayed server-only until a reload). Fetching the chunk before hydration
 * and rendering the fetched component directly leaves no boundary waiting.
 */

/**
 * What hydration waits for: entry.client.tsx reads the same global (importing this module would add a
 * file to every page's entry). Settled there, so a chunk that fails to load delays nothing.
 */
export const HOLDS = Symbol.for("portico.chunksBeforeHydration");
type HoldingGlobal = typeof globalThis & { [HOLDS]?: Promise<unknown>[] };

function holdHydrationFor(fetching: Promise<unknown>) {
  const scope = globalThis as HoldingGlobal;
  scope[HOLDS] ??= [];
  scope[HOLDS].push(fetching);
}

/**
 * A component in a chunk of its own. In the browser, when `rendered()` says the document holds its
 * server output, the chunk is fetched at once and hydration waits for it; a component whose chunk has
 * arrived renders without suspending, and one that has not yet (a client-side visit) is `React.lazy`.
 */
// biome-ignore lint/suspicious/noExplicitAny: any component's props, as React.lazy's own signature.
export function lazyChunk<P extends Record<string, any>>(
  load: () => Promise<ComponentType<P>>,
  rendered: () => boolean,
  hold = true,
): ComponentType<P> {
  let loaded: ComponentType<P> | undefined;
  let pending: Promise<ComponentType<P>> | undefined;
  const fetchChunk = () => {
    pending ??= load().then((component) => {
      loaded = component;
      return component;
    });
    return pending;
  };
  if (typeof document !== "undefined" && rendered()) {
    const fetching = fetchChunk();
    if (hold) holdHydrationFor(fetching);
  }
  const Lazy = lazy(() => fetchChunk().then((component) => ({ default: component })));
  // biome-ignore lint/correctness/noComponentHookFactories: called once per chunk at module level, as React.lazy is.
  function Chunk(props: P) {
    const Component = loaded;
    // Neither adds markup of its own, so either hydrates the server's output of the other.
    return Component ? <Component {...props} /> : <Lazy {...props} />;
  }
  return Chunk;
}
