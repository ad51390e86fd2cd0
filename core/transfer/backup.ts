import { mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { exportArchive } from './export.ts';
import type { TransferDeps } from './transfer-deps.ts';

/** A backup's file name: the time it was taken, so names sort as the backups were made. */
const BACKUP_NAME = /^billing-backup-\d{8}T\d{9}Z\.tar\.gz$/;

export function backupName(at: Date): string {
  return `billing-backup-${at.toISOString().replace(/[-:.]/g, '')}.tar.gz`;
}

export type BackupResult = { file: string; bytes: number; rows: number; removed: string[] } | { skipped: string };

/**
 * One scheduled backup: an export archive in `dir` (made if missing), then the oldest backups beyond
 * `keep` deleted. Only files named as backups are counted or deleted; whatever else is in the folder
 * stays. Two instances never write one at once: the export holds a lock for its whole transaction,
 * and the one that cannot take it skips.
 */
export async function runBackup(d: TransferDeps, dir: string, keep: number, at: Date = new Date()): Promise<BackupResult> {
  await mkdir(dir, { recursive: true });
  const path = join(dir, backupName(at));
  const written = await exportArchive(d, path, { exclusive: 'billing_backup' });
  if (!written) return { skipped: 'another instance is writing a backup' };
  const backups = (await readdir(dir)).filter((f) => BACKUP_NAME.test(f)).sort();
  const removed = backups.slice(0, Math.max(0, backups.length - keep));
  for (const f of removed) await rm(join(dir, f), { force: true });
  return { file: path, bytes: written.bytes, rows: written.rows, removed };
}
