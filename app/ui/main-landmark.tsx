import type { ReactNode } from "react";
import { cn } from "./cn";

/**
 * The page's main landmark: the page's own content only, never a layout's navigation, header or sidebar
 * (ARCHITECTURE.md, "Each layout owns its landmarks"). It is the target of "Skip to content", so it takes
 * focus (tabindex -1: reachable by the link, not a Tab stop) and the next Tab lands in the page's content.
 * No outline: it is a region, not a control.
 */
export function MainLandmark({ className, children }: { className?: string; children: ReactNode }) {
  return (
    <main id="main" tabIndex={-1} className={cn("outline-none", className)}>
      {children}
    </main>
  );
}

/**
 * A layout route whose component renders `<MainLandmark>` itself (around its pages, after its own
 * navigation) exports this as its `handle`; the root then leaves the landmark to it.
 */
export const OWNS_MAIN_LANDMARK = { ownsMainLandmark: true } as const;

export function ownsMainLandmark(handle: unknown): boolean {
  return Boolean(handle && (handle as { ownsMainLandmark?: unknown }).ownsMainLandmark === true);
}

/**
 * A layout that frames its pages for some requests only (the portal's frame on a page a visitor may see
 * too): it renders the main landmark itself either way, and while its loader's data is not null its frame
 * stands in for the public site's header, footer and chat.
 */
export const FRAMES_WHEN_LOADED = { ownsMainLandmark: true, framesWhenLoaded: true } as const;

/** True for a match of such a layout whose loader gave it a frame to draw. */
export function framesThePage(match: { handle: unknown; loaderData: unknown }): boolean {
  const handle = match.handle as { framesWhenLoaded?: unknown } | null | undefined;
  return handle?.framesWhenLoaded === true && match.loaderData != null;
}
