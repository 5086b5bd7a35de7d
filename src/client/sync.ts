/**
 * Satchel's sync operations from the client side (wire/sync.ts): a sync with its progress read as
 * it comes, and the sync's status. Aborting the signal closes the request, which the host takes as
 * cancellation.
 */
import type { HttpTransport } from './http.ts';
import { resultOf } from './longOperation.ts';
import type { BodyIn } from '../wire/operation.ts';
import { syncOperations as op } from '../wire/sync.ts';
import type { SyncProgress, SyncSummary } from '../core/sync/syncEngine.ts';
import type { ConflictChoice, ConflictField, ConflictSides, SyncConflict, SyncStatus } from '../core/sync/syncService.ts';

export type { SyncProgress, SyncSummary } from '../core/sync/syncEngine.ts';
export type { ConflictChoice, ConflictField, ConflictSides, ConflictVersion, SyncConflict, SyncStatus } from '../core/sync/syncService.ts';

export interface ClientSyncOptions {
  readonly signal?: AbortSignal | undefined;
  readonly onProgress?: ((progress: SyncProgress) => void) | undefined;
}

export class SyncClient {
  private readonly http: HttpTransport;

  constructor(http: HttpTransport) {
    this.http = http;
  }

  /** Syncs (setting the remote first when `request.remote` is given); resolves with the summary, throws the host's error. */
  async run(request: BodyIn<typeof op.sync> = {}, options: ClientSyncOptions = {}): Promise<SyncSummary> {
    const lines = await this.http.call(op.sync, { body: request, ...(options.signal ? { signal: options.signal } : {}) });
    return resultOf(lines, 'summary', options.onProgress, op.sync.path);
  }

  status(): Promise<SyncStatus> {
    return this.http.call(op.status);
  }

  conflicts(): Promise<SyncConflict[]> {
    return this.http.call(op.conflicts);
  }

  /** A conflict's two versions as the host's machine names them (mine, theirs), and the fields they differ in. */
  conflict(copy: string): Promise<ConflictSides> {
    return this.http.call(op.conflict, { params: { copy } });
  }

  /** Keep mine (this machine's version, whichever snippet holds it, becomes the snippet's in every field), theirs (the other machine's) or both (the copy stays, no longer a conflict). */
  resolve(copy: string, keep: ConflictChoice, fields?: readonly ConflictField[]): Promise<void> {
    return this.http.call(op.resolve, { params: { copy }, body: { keep, ...(fields !== undefined ? { fields: [...fields] } : {}) } });
  }
}
