/**
 * POST /satchel/backup (Satchel's own operation, not part of the Pieces interface): the host copies
 * its store into the data directory's backups folder, under a name it chooses, and answers NDJSON:
 * progress lines, then the backup (its name in that folder) or an error line. A caller names no
 * path: a loopback port any local process can reach must not write files where a caller says.
 */
import type { BackupResult } from '../core/backups/backups.ts';
import type { CopyProgress } from '../core/backups/storeCopy.ts';
import { ndjson, post } from './operation.ts';
import type { LongOperationLine } from './longOperation.ts';

/** The backup as the reply describes it (its place is `<data dir>/backups/<name>`). */
export type BackupReply = Omit<BackupResult, 'path'>;

export type BackupLine = LongOperationLine<CopyProgress, 'backup', BackupReply>;

export const backupOperations = {
  /** Reads no body; answers progress lines as the copy goes, then the backup or an error line. */
  create: post('/satchel/backup', ndjson<BackupLine>()),
} as const;
