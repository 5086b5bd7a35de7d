/**
 * POST /satchel/backup from the client side: the host copies its store into its backups folder and
 * reports progress as it goes; the reply names the copy. Aborting the signal closes the request,
 * which the host takes as cancellation (the partial copy is removed).
 */
import type { HttpTransport } from './http.ts';
import { resultOf } from './longOperation.ts';
import type { CopyProgress } from '../core/backups/storeCopy.ts';
import { backupOperations as op, type BackupReply } from '../wire/backups.ts';

export type { BackupReply } from '../wire/backups.ts';
export type { CopyProgress } from '../core/backups/storeCopy.ts';

export interface ClientBackupOptions {
  readonly signal?: AbortSignal | undefined;
  readonly onProgress?: ((progress: CopyProgress) => void) | undefined;
}

export class BackupsClient {
  private readonly http: HttpTransport;

  constructor(http: HttpTransport) {
    this.http = http;
  }

  async create(options: ClientBackupOptions = {}): Promise<BackupReply> {
    const lines = await this.http.call(op.create, options.signal ? { signal: options.signal } : {});
    return resultOf(lines, 'backup', options.onProgress, op.create.path);
  }
}
