/**
 * Backup files: their names (the time and the schema version, e.g.
 * `portico-2026-11-24T21-00-00Z-0013_quotes.pglite.tar.gz`), what kind a file is by its first bytes, which
 * ones a folder keeps, and sizes as people read them.
 */

/** `pglite`: PGlite's own `dumpDataDir()` tarball (gzip). `pgdump`: `pg_dump --format=custom`. */
export type BackupKind = "pglite" | "pgdump";

export const BACKUP_EXTENSIONS: Record<BackupKind, string> = {
  pglite: ".pglite.tar.gz",
  pgdump: ".pgdump",
};

/** `portico-{UTC time, colons as dashes}-{schema version}{extension}`: names sort by time. */
export function backupFileName(at: Date, version: string, kind: BackupKind): string {
  const stamp = at
    .toISOString()
    .replace(/\.\d{3}Z$/, "Z")
    .replace(/:/g, "-");
  const safeVersion = version.replace(/[^A-Za-z0-9_.-]/g, "_");
  return `portico-${stamp}-${safeVersion}${BACKUP_EXTENSIONS[kind]}`;
}

const NAME = /^portico-(\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ)-(.+?)(\.pglite\.tar\.gz|\.pgdump)$/;

/** The time and version a backup's name carries, or null for any other name. */
export function parseBackupFileName(name: string): { at: Date; version: string; kind: BackupKind } | null {
  const m = NAME.exec(name);
  if (!m) return null;
  const [date, time] = m[1]!.split("T") as [string, string];
  const at = new Date(`${date}T${time.replace(/-/g, ":")}`);
  if (Number.isNaN(at.getTime())) return null;
  return { at, version: m[2]!, kind: m[3] === ".pgdump" ? "pgdump" : "pglite" };
}

/** What a file holds, from its first bytes: gzip (PGlite's tarball) or a pg_dump custom archive. */
export function detectBackupKind(head: Uint8Array): BackupKind | null {
  if (head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b) return "pglite";
  if (head.length >= 5 && new TextDecoder().decode(head.subarray(0, 5)) === "PGDMP") return "pgdump";
  return null;
}

/**
 * The backups to delete so that the newest `keep` remain: only files named as backups are considered
 * (anything else in the folder stays), newest by the time in the name, then by modification time.
 */
export function backupsToPrune(
  files: ReadonlyArray<{ name: string; mtimeMs: number }>,
  keep: number,
): string[] {
  const backups = files
    .map((f) => ({ ...f, parsed: parseBackupFileName(f.name) }))
    .filter((f) => f.parsed !== null)
    .sort(
      (a, b) =>
        b.parsed!.at.getTime() - a.parsed!.at.getTime() ||
        b.mtimeMs - a.mtimeMs ||
        b.name.localeCompare(a.name),
    );
  return backups.slice(Math.max(keep, 0)).map((f) => f.name);
}

/** "912 B", "48.3 KB", "4.4 MB", "1.2 GB" (powers of 1024). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KB", "MB", "GB", "TB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}
