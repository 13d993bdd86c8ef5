/**
 * The back-office dashboard's backups card (ADR 0902), in plain status lines: the last good backup
 * ("Last backup: {time}, {file}, {size}", or "No backup yet"), the next one and where backups go (or
 * "Scheduled backups: off"), and the newest run's error when it failed. How to set them up is the
 * README's ("Backups"), not the owner's dashboard's.
 */
import { Card } from "~/ui/card";
import { formatDateTime } from "~/ui/format";
import { formatBytes } from "./backup-files";

export interface BackupCardData {
  lastGood: { at: string; file: string; sizeBytes: number } | null;
  lastError: { at: string; error: string } | null;
  /** Null while BACKUP_DIR is unset. */
  schedule: { dir: string; nextAt: string } | null;
}

export function BackupCard({ backups }: { backups: BackupCardData }) {
  const { lastGood, lastError, schedule } = backups;
  return (
    <Card title="Backups" data-testid="backups">
      <ul className="wrap-anywhere space-y-1 text-sm">
        <li>
          {lastGood
            ? `Last backup: ${formatDateTime(lastGood.at)}, ${lastGood.file}, ${formatBytes(lastGood.sizeBytes)}`
            : "No backup yet"}
        </li>
        {schedule ? (
          <>
            <li>Next backup: {formatDateTime(schedule.nextAt)}</li>
            <li>Saved in: {schedule.dir}</li>
          </>
        ) : (
          <li className="text-slate-700">Scheduled backups: off</li>
        )}
      </ul>
      {lastError && (
        <p className="wrap-anywhere mt-2 text-sm text-red-700" role="alert">
          The last backup failed ({formatDateTime(lastError.at)}): {lastError.error}
        </p>
      )}
    </Card>
  );
}
