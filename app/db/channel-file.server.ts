/**
 * The channel file of a running server on the embedded database (`.admin-channel` beside the PGlite
 * folder, written by features/admin/local-channel.server.ts): its pid, the loopback port of its local
 * channel and the channel's token. Commands that need the folder (`admin:create`, `db:backup`,
 * `db:restore`) read it to learn whether a server holds the folder now.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

export interface ChannelFile {
  pid: number;
  port: number;
  token: string;
}

/** Where the channel file of a PGlite folder lives (beside `.auth-secret`). */
export function channelFilePath(pgliteDir: string): string {
  return path.join(pgliteDir, "..", ".admin-channel");
}

export function readChannelFile(pgliteDir: string): ChannelFile | null {
  const file = channelFilePath(pgliteDir);
  if (!existsSync(file)) return null;
  try {
    const value = JSON.parse(readFileSync(file, "utf8")) as Partial<ChannelFile>;
    if (typeof value.pid !== "number" || typeof value.port !== "number" || typeof value.token !== "string")
      return null;
    return value as ChannelFile;
  } catch {
    return null;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The channel of a server that holds the folder now (its process is alive), or null. */
export function liveChannel(pgliteDir: string): ChannelFile | null {
  if (pgliteDir.startsWith("memory://")) return null;
  const channel = readChannelFile(pgliteDir);
  return channel && isAlive(channel.pid) ? channel : null;
}

/** What `POST /backup` answers with: the embedded database's tarball and its schema version. */
export type ChannelBackup = () => Promise<{ version: string; blob: Blob }>;

export const SCHEMA_VERSION_HEADER = "x-portico-schema-version";
export const BACKUP_STARTED_HEADER = "x-portico-backup-started-at";
