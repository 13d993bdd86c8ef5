/** Page titles: "{page} | {business name}", the business name coming from the root loader. */
import { rootData } from "./root-data";

type Matches = ReadonlyArray<{ id: string; data?: unknown } | undefined>;

export function pageTitle(page: string, matches: Matches): string {
  const name = rootData(matches)?.business.name ?? "Portico";
  return page ? `${page} | ${name}` : name;
}
