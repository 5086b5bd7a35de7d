/**
 * Downloads of language models: resumable and verified (downloader.ts), with progress, pause on
 * shutdown, cancel, and each one's state recorded in the model's row.
 */
import { statSync } from 'node:fs';
import type { StoreContext } from '../context.ts';
import type { ModelDownloadProgress } from '../piecesTypes.ts';
import { InsufficientResourcesError } from '../errors.ts';
import { discardPartial, downloadFile, DownloadError, PAUSE } from './downloader.ts';
import type { ModelRow, ModelStore } from './modelStore.ts';
import type { ProgressFeed } from './progressFeed.ts';
import { DISK_MARGIN, expectGguf, type ModelFiles } from './modelFiles.ts';
import type { LanguageModel } from './knownModels.ts';

interface Download {
  readonly controller: AbortController;
  done: Promise<void>;
  received: number;
  total?: number;
}

export class ModelDownloads {
  private readonly context: StoreContext;
  private readonly store: ModelStore;
  private readonly files: ModelFiles;
  private readonly progress: ProgressFeed;
  private readonly retryBackoffMs: number;
  private readonly running = new Map<string, Download>();
  private closed = false;

  constructor(context: StoreContext, store: ModelStore, files: ModelFiles, progress: ProgressFeed, retryBackoffMs: number) {
    this.context = context;
    this.store = store;
    this.files = files;
    this.progress = progress;
    this.retryBackoffMs = retryBackoffMs;
  }

  isRunning(id: string): boolean {
    return this.running.has(id);
  }

  filePath(known: LanguageModel): string {
    return this.files.path(known.base.id, known.file);
  }

  /** Downloaded means: recorded as complete, and the file is there with its recorded size. */
  isDownloaded(known: LanguageModel): boolean {
    if (known.row?.state !== 'downloaded') return false;
    try {
      return statSync(this.filePath(known)).size === known.row.bytes;
    } catch {
      return false;
    }
  }

  /** The recorded state, except that a download no longer running was interrupted, whatever the row says. */
  stateOf(known: LanguageModel): ModelRow['state'] | undefined {
    const state = known.row?.state;
    return state === 'downloading' && !this.running.has(known.base.id) ? 'interrupted' : state;
  }

  updateRow(known: LanguageModel, patch: Partial<ModelRow>): void {
    const row = this.store.get(known.base.id) ?? { id: known.base.id, custom: known.custom, state: 'none' as const };
    this.store.put({ ...row, ...patch });
  }

  /** Joins the running download of a model, or starts one; resolves when it has ended, however it ended. */
  run(known: LanguageModel): Promise<void> {
    return (this.running.get(known.base.id) ?? this.start(known)).done;
  }

  /** Starts a download unless one is running. */
  ensure(known: LanguageModel): void {
    if (!this.running.has(known.base.id)) this.start(known);
  }

  async stop(id: string, reason: string): Promise<void> {
    const download = this.running.get(id);
    if (!download) return;
    download.controller.abort(reason);
    await download.done;
  }

  /** Stops a download (or drops an interrupted one): the partial file goes, the model is left not downloaded. */
  async cancel(known: LanguageModel): Promise<void> {
    const id = known.base.id;
    if (this.running.has(id)) await this.stop(id, 'cancel');
    else if (this.stateOf(known) === 'interrupted') {
      await discardPartial(this.filePath(known));
      this.updateRow(known, { state: 'canceled' });
      this.progress.report(id, { status: 'CANCELED', percentage: 0 }, true);
      this.context.publish({ kind: 'model', id });
    }
  }

  progressOf(known: LanguageModel): ModelDownloadProgress {
    const running = this.running.get(known.base.id);
    if (running) return runningProgress(running);
    if (this.isDownloaded(known)) return { status: 'COMPLETED', percentage: 100 };
    switch (this.stateOf(known)) {
      case 'interrupted': {
        // What survives of an interrupted download: how far a resume starts.
        const total = known.row?.bytes ?? known.declaredBytes;
        let kept = 0;
        try {
          kept = statSync(`${this.filePath(known)}.part`).size;
        } catch {
          // No partial file: the next download starts from zero.
        }
        return { status: 'RESET', percentage: total ? percentOf(kept, total) : 0 };
      }
      case 'failed':
        return { status: 'FAILED', percentage: 0 };
      case 'canceled':
        return { status: 'CANCELED', percentage: 0 };
      default:
        return { status: 'UNKNOWN', percentage: 0 };
    }
  }

  /** Shutting down pauses downloads: their partial files resume after the restart. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.running.keys()].map((id) => this.stop(id, PAUSE)));
  }

  private start(known: LanguageModel): Download {
    const id = known.base.id;
    const dest = this.filePath(known);
    const download: Download = { controller: new AbortController(), done: Promise.resolve(), received: 0, ...(known.declaredBytes ? { total: known.declaredBytes } : {}) };
    // Recorded first: when even that write fails (a full disk), no download is left registered.
    this.updateRow(known, { state: 'downloading', file: known.file, error: undefined });
    this.running.set(id, download);
    this.progress.report(id, { status: 'INITIALIZED', percentage: 0 }, true);
    this.context.publish({ kind: 'model', id });
    const { signal } = download.controller;
    download.done = downloadFile({
      source: known.source!,
      dest,
      ...(known.sha256 ? { sha256: known.sha256 } : {}),
      signal,
      backoffMs: this.retryBackoffMs,
      ...(known.declaredBytes !== undefined ? { maxBytes: known.declaredBytes } : {}),
      onTotal: async (total, received) => {
        await this.files.ensureDisk(total - received);
        download.total = total;
        this.updateRow(known, { bytes: total });
      },
      // A body of unknown length (or a disk others are filling) stops while there is room left.
      onSpaceCheck: () => this.files.ensureDisk(0, DISK_MARGIN / 2),
      onProgress: (progress) => {
        download.received = progress.received;
        if (progress.total !== undefined) download.total = progress.total;
        this.progress.report(id, runningProgress(download));
      },
      verify: expectGguf,
    })
      .then(
        (result) => {
          // Trust on first use: with no published digest, the first complete download's is kept.
          this.record(known, { state: 'downloaded', bytes: result.bytes, sha256: known.sha256 ?? result.sha256, error: undefined });
          this.progress.report(id, { status: 'COMPLETED', percentage: 100 }, true);
        },
        async (error: unknown) => {
          if (signal.aborted && signal.reason === PAUSE) {
            this.record(known, { state: 'interrupted' });
            this.progress.report(id, { status: 'RESET', percentage: download.total ? percentOf(download.received, download.total) : 0 }, true);
          } else if (signal.aborted) {
            await discardPartial(dest).catch(() => {});
            this.record(known, { state: 'canceled', error: undefined });
            this.progress.report(id, { status: 'CANCELED', percentage: 0 }, true);
          } else {
            this.context.logger.warn(`download of model ${id} failed: ${(error as Error)?.message ?? error}`);
            // A partial file that filled the disk or outgrew its declared size is of no use to a resume.
            if (isSpaceOrSize(error)) await discardPartial(dest).catch(() => {});
            this.record(known, { state: 'failed', error: (error as Error)?.message ?? String(error) });
            this.progress.report(id, { status: 'FAILED', percentage: 0 }, true);
          }
        },
      )
      .finally(() => {
        this.running.delete(id);
        if (!this.closed) this.context.publish({ kind: 'model', id });
      });
    return download;
  }

  /**
   * The bookkeeping of a download that has ended: a failed write (the disk is full) is logged, never
   * thrown, because nobody awaits it and an unhandled rejection ends the process.
   */
  private record(known: LanguageModel, patch: Partial<ModelRow>): void {
    try {
      this.updateRow(known, patch);
    } catch (error) {
      this.context.logger.warn(`Could not record the download state of model ${known.base.id}: ${(error as Error).message}`);
    }
  }
}

function isSpaceOrSize(error: unknown): boolean {
  return (
    error instanceof InsufficientResourcesError ||
    (error instanceof DownloadError && error.reason === 'size') ||
    (error as NodeJS.ErrnoException | undefined)?.code === 'ENOSPC'
  );
}

function percentOf(received: number, total: number): number {
  return Math.min(100, Math.floor((received / total) * 1000) / 10);
}

function runningProgress(download: Download): ModelDownloadProgress {
  if (download.received === 0) return { status: 'INITIALIZED', percentage: 0 };
  return { status: 'IN-PROGRESS', percentage: download.total ? percentOf(download.received, download.total) : null };
}
