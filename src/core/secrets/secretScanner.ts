/**
 * Runs the detector where it costs the host nothing: a snippet of a few pages on the caller's
 * thread (a worker's round trip would cost more than the scan), anything larger on a worker thread,
 * one at a time, interactive scans (a door waiting to send a snippet out) before background ones
 * (the one-off scan of a library). Where the worker cannot start or dies, the scan runs on the
 * caller's thread: slower for the loop, but a door never goes on without an answer.
 */
import { Worker } from 'node:worker_threads';
import type { Disposable } from '../events.ts';
import type { Logger } from '../context.ts';
import { detectSecrets, type SecretTexts } from './detector.ts';
import type { SecretFinding } from './findings.ts';
import type { ScanReply, ScanRequest, StoredScan, StoredScanResult } from './scanProtocol.ts';
import { scanWorkerFile } from './scannerFiles.ts';
import { scanInWindows } from './scanWindows.ts';

export type ScanPriority = 'interactive' | 'background';

export interface SecretScannerOptions {
  /** Texts of at most this many characters in all are scanned on the caller's thread (default 32 Ki). */
  readonly inThreadChars?: number;
  /** The worker script (tests give one that fails). */
  readonly worker?: URL;
  readonly logger?: Logger;
}

/** Texts to scan, or a stored snippet the worker reads itself (undefined when it could not: the caller reads it). */
type Job =
  | { readonly texts: SecretTexts; readonly resolve: (findings: SecretFinding[]) => void; readonly reject: (error: Error) => void }
  | { readonly stored: StoredScan; readonly settle: (result: StoredScanResult | undefined) => void };

export class SecretScanner implements Disposable {
  private readonly inThreadChars: number;
  private readonly workerFile: URL;
  private readonly logger: Logger | undefined;
  private worker: Worker | undefined;
  private ready: Promise<Worker> | undefined;
  private readonly queues: Record<ScanPriority, Job[]> = { interactive: [], background: [] };
  private current: { readonly id: number; readonly job: Job } | undefined;
  private nextId = 0;
  private disposed = false;
  /** Set once the worker failed: scans run on the caller's thread from then on. */
  private broken = false;

  constructor(options: SecretScannerOptions = {}) {
    this.inThreadChars = options.inThreadChars ?? 32 * 1024;
    this.workerFile = options.worker ?? scanWorkerFile();
    this.logger = options.logger;
  }

  /** The findings of a snippet's texts (none dismissed or stored: what is there). */
  async scan(texts: SecretTexts, priority: ScanPriority = 'interactive'): Promise<SecretFinding[]> {
    // A text past the content limit (an older store's): a window at a time.
    return scanInWindows(texts, (part) => this.scanWhole(part, priority));
  }

  private scanWhole(texts: SecretTexts, priority: ScanPriority): Promise<SecretFinding[]> {
    const size = texts.code.length + (texts.name?.length ?? 0) + (texts.description?.length ?? 0);
    if (size <= this.inThreadChars || this.broken || this.disposed) return detectSecrets(texts);
    return new Promise((resolve, reject) => {
      this.queues[priority].push({ texts, resolve, reject });
      void this.giveNext();
    });
  }

  /**
   * A stored snippet read, hashed and scanned on the worker (storedScan.ts), in the queue of
   * `priority`; undefined when the worker cannot (it failed, or this scanner is disposed): the
   * caller then reads the texts itself and scans them.
   */
  scanStored(stored: StoredScan, priority: ScanPriority = 'background'): Promise<StoredScanResult | undefined> {
    if (this.broken || this.disposed) return Promise.resolve(undefined);
    return new Promise((settle) => {
      this.queues[priority].push({ stored, settle });
      void this.giveNext();
    });
  }

  /** Whether a worker thread is running. */
  get threadStarted(): boolean {
    return this.worker !== undefined;
  }

  dispose(): void {
    this.disposed = true;
    const worker = this.worker;
    this.worker = undefined;
    this.ready = undefined;
    // What was waiting is scanned here rather than dropped: a door is waiting for it.
    this.drainHere();
    void worker?.terminate();
  }

  private start(): Promise<Worker> {
    this.ready ??= new Promise<Worker>((resolve, reject) => {
      // Held (ref'd) while it has work, so a caller awaiting a scan gets its answer; let go once idle
      // (giveNext), so a scanner nobody disposed never keeps a CLI process alive.
      const worker = new Worker(this.workerFile);
      this.worker = worker;
      worker.on('message', (reply: ScanReply) => {
        if ('ready' in reply) {
          resolve(worker);
          return;
        }
        const current = this.current;
        if (current?.id !== reply.id) return;
        this.current = undefined;
        const job = current.job;
        if ('stored' in job) {
          if ('error' in reply) this.logger?.warn(`The secrets worker could not read snippet ${job.stored.assetId} (${reply.error}); it is read on the host's thread`);
          job.settle('stored' in reply ? reply.stored : undefined);
        } else if ('findings' in reply) job.resolve(reply.findings);
        else runHere(job);
        void this.giveNext();
      });
      const fail = (error: Error): void => {
        if (this.worker !== worker) return;
        this.logger?.warn(`The secrets scan worker stopped (${error.message}); scanning on the host's thread instead`);
        this.broken = true;
        this.worker = undefined;
        this.ready = undefined;
        reject(error);
        this.drainHere();
      };
      worker.on('error', fail);
      worker.on('exit', (code) => fail(new Error(`exited with code ${code}`)));
    });
    return this.ready;
  }

  private async giveNext(): Promise<void> {
    if (this.current !== undefined) return;
    let worker: Worker;
    try {
      worker = await this.start();
    } catch {
      return; // drainHere took the jobs
    }
    if (this.current !== undefined || this.worker !== worker) return;
    const job = this.queues.interactive.shift() ?? this.queues.background.shift();
    if (job === undefined) {
      // Let go only once start() added the 'message' listener: adding one refs the worker's port
      // again, which is why an unref() made at creation still left an undisposed scanner's process running.
      worker.unref();
      return;
    }
    worker.ref();
    const id = ++this.nextId;
    this.current = { id, job };
    const request: ScanRequest = 'stored' in job ? { id, stored: job.stored } : { id, texts: job.texts };
    worker.postMessage(request);
  }

  /** Scans every waiting job (and the one the worker had) on this thread; a stored one goes back to its caller, who reads it. */
  private drainHere(): void {
    const jobs = [...(this.current ? [this.current.job] : []), ...this.queues.interactive.splice(0), ...this.queues.background.splice(0)];
    this.current = undefined;
    for (const job of jobs) runHere(job);
  }
}

function runHere(job: Job): void {
  if ('stored' in job) job.settle(undefined);
  else detectSecrets(job.texts).then(job.resolve, job.reject);
}
