/**
 * A database's schema version is the newest migration it holds. Drizzle records each applied migration in
 * `drizzle.__drizzle_migrations` by the `when` of its journal entry (drizzle/meta/_journal.json), not by
 * name: the journal of this code turns those numbers back into tags ("0013_quotes").
 */

export interface JournalEntry {
  tag: string;
  /** Drizzle's `when`: what `created_at` of the migrations table holds once it is applied. */
  when: number;
}

export type VersionCheck =
  /** No migrations table or no row: not a Portico database. */
  | { kind: "empty" }
  /** The backup holds a migration this code does not know, newer than its newest. */
  | { kind: "newer"; label: string; codeTag: string }
  /** Everything the backup holds, this code knows; `missing` are the code's newer ones to apply. */
  | { kind: "known"; tag: string; missing: string[] };

/** The version's name: the tag of the newest applied migration, or `unknown-{when}` for one this code lacks. */
export function versionLabel(applied: readonly number[], journal: readonly JournalEntry[]): string {
  if (applied.length === 0) return "empty";
  const newest = Math.max(...applied);
  return journal.find((e) => e.when === newest)?.tag ?? `unknown-${newest}`;
}

/** Compares what a backup holds (the `created_at` of its migrations) with this code's journal. */
export function checkVersion(applied: readonly number[], journal: readonly JournalEntry[]): VersionCheck {
  if (applied.length === 0) return { kind: "empty" };
  const newest = Math.max(...applied);
  const codeNewest = journal.reduce<JournalEntry | null>((a, e) => (a && a.when >= e.when ? a : e), null);
  if (!codeNewest || newest > codeNewest.when) {
    return { kind: "newer", label: versionLabel(applied, journal), codeTag: codeNewest?.tag ?? "none" };
  }
  return {
    kind: "known",
    tag: versionLabel(applied, journal),
    // Drizzle applies every migration newer than the newest applied one (its own rule, migrate.server.ts).
    missing: journal.filter((e) => e.when > newest).map((e) => e.tag),
  };
}
