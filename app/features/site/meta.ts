/** Page titles: "{page} | {business name}", the business name coming from the root loader. */
type Matches = ReadonlyArray<{ id: string; data?: unknown } | undefined>;

export function pageTitle(page: string, matches: Matches): string {
  const root = matches.find((m) => m?.id === "root")?.data as { business?: { name?: string } } | undefined;
  const name = root?.business?.name ?? "Portico";
  return page ? `${page} | ${name}` : name;
}
