/**
 * The back-office dashboard's backups card (ADR 0902): the last good scheduled backup ("Last backup:
 * {time}, {file}, {size}") or "No backup yet", the newest run's error when it failed, and how to turn
 * scheduled backups on when BACKUP_DIR is unset.
 */
import { Card } from "~/ui/card";
import { formatDateTime } from "~/ui/format";
import { formatBytes } from "./backup-files";

export interface BackupCardData {
  /** BACKUP_DIR is set. */
  scheduled: boolean;
  lastGood: { at: string; file: string; sizeBytes: number } | null;
  lastError: { at: string; error: string } | null;
}

export function BackupCard({ backups }: { backups: BackupCardData }) {
  const { lastGood, lastError, scheduled } = backups;
  return (
    <Card title="Backups" data-testid="backups">
      <p className="wrap-anywhere text-sm">
        {lastGood
          ? `Last backup: ${formatDateTime(lastGood.at)}, ${lastGood.file}, ${formatBytes(lastGood.sizeBytes)}`
          : "No backup yet"}
      </p>
      {lastError && (
        <p className="wrap-anywhere mt-2 text-sm text-red-700" role="alert">
          The last backup failed ({formatDateTime(lastError.at)}): {lastError.error}
        </p>
      )}
      {!scheduled && (
        <p className="mt-2 text-sm text-slate-600">
          Scheduled backups are off: set BACKUP_DIR (README, "Backups"), or run npm run db:backup.
        </p>
      )}
    </Card>
  );
}
