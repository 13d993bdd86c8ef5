/**
 * The one typed way to read the root loader's data: `useRootData()` in components, `rootData(matches)`
 * in meta functions. Pages do not re-return it from their own loaders.
 */
import { useRouteLoaderData } from "react-router";
import type { RootLoad } from "./root-data.server";

export type RootData = RootLoad["data"];

/** The root loader's data, for the document shell and error boundaries, where it may be missing. */
export function useOptionalRootData(): RootData | undefined {
  return useRouteLoaderData("root") as RootData | undefined;
}

/** The root loader's data in a page: always there once a route renders. */
export function useRootData(): RootData {
  const data = useOptionalRootData();
  if (!data) throw new Error("useRootData: the root loader's data is missing");
  return data;
}

type Matches = ReadonlyArray<{ id: string; data?: unknown } | undefined>;

/** The root loader's data from a meta function's `matches`. */
export function rootData(matches: Matches): RootData | undefined {
  return matches.find((m) => m?.id === "root")?.data as RootData | undefined;
}
