/**
 * Copies the WAL back into the database file on a worker thread, with a connection of its own.
 *
 * SQLite's automatic checkpoint runs inside the COMMIT that takes the WAL past 1,000 pages, on the
 * event loop, and writes those pages into the database file and syncs it twice. Measured at 100k
 * assets on this project's machine, that COMMIT took 30–270 ms once every few dozen creates, and
 * creates ran at 362–403/s against 686–769/s with the checkpoint moved off the event loop. A
 * checkpoint only copies what the WAL already holds durably, so where it runs changes nothing about
 * what survives a crash: commits are still acknowledged after their WAL write is synced.
 *
 * The worker starts with the first checkpoint due (a store opened, written briefly and closed never
 * starts one) and costs about 9 MB of resident memory while it runs, so it is let go once writes
 * have stopped for IDLE_MS. If it cannot run (no worker threads, or its connection failed),
 * `fallBack` hands checkpoints back to SQLite.
 *
 * Light writes do not start it (issue 34): while no worker runs, a commit that leaves the WAL file
 * within LIGHT_WAL_BYTES schedules nothing; the WAL keeps those commits, synced as before, until
 * writes take it past that size or the store closes (its connection, the last, checkpoints then).
 * A window's everyday writes had the worker started within a second of the window connecting and
 * kept it for as long as it was used (at 100k snippets a copy's record is about 4 frames of the WAL,
 * a save about 60): 9–10 MB of the host's resident memory at 100k on Node 24, VS Code's (a worker alone
 * costs 15–19 MB while it runs, and Node 24 keeps 13–14 MB of it after it ends; docs/performance.md).
 * The file's size tells the frames written since the WAL last started over: it starts over from its
 * first frame, trimmed back to WAL_LIMIT_BYTES, and grows only as frames pass its end.
 */
import { statSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import type { DatabaseSync } from 'node:sqlite';
import type { Disposable } from '../events.ts';
import { WalRestart } from './walRestart.ts';

/** A checkpoint runs at most this often while writes go on (the WAL grows meanwhile, by what they wrote). */
const INTERVAL_MS = 250;
/** A worker with no checkpoint to do for this long closes (the next write starts another). */
const IDLE_MS = 5_000;
/** How long closing waits for the worker to finish a checkpoint and close its connection. */
const CLOSE_WAIT_MS = 10_000;
/**
 * The store's journal_size_limit (database.ts): a checkpointed WAL starts over and is trimmed back
 * to this, so a WAL file no larger holds at most this much (about 1,000 frames of 4 KiB pages).
 */
export const WAL_LIMIT_BYTES = 4 * 1024 * 1024;
/**
 * While no worker runs, commits leaving the WAL file at most this large start none: about 4,000
 * frames of 4 KiB pages, 4 times SQLite's own checkpoint mark (a WAL that size is read and recovered
 * as fast; it is about 70 saves at 100k snippets, copied by the worker in one checkpoint).
 */
export const LIGHT_WAL_BYTES = 16 * 1024 * 1024;

// Self-contained CommonJS: an eval worker needs no file beside the bundle. PASSIVE never takes the
// writer's lock, so the event loop's transactions neither wait for it nor make it fail.
const source = `
const { parentPort, workerData } = require('node:worker_threads');
const { DatabaseSync } = process.getBuiltinModule('node:sqlite');
const db = new DatabaseSync(workerData.path);
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
parentPort.on('message', (message) => {
  if (message.close) {
    db.close();
    Atomics.store(message.closed, 0, 1);
    Atomics.notify(message.closed, 0);
    parentPort.close();
    return;
  }
  try {
    const row = checkpoint.get();
    parentPort.postMessage({ ok: true, log: row.log, checkpointed: row.checkpointed });
  } catch (error) {
    parentPort.postMessage({ ok: false, message: String(error && error.message) });
  }
});
`;

export interface CheckpointResult {
  /** Pages in the WAL and pages of it now in the database file (equal when the checkpoint completed). */
  readonly log: number;
  readonly checkpointed: number;
}

type Reply = ({ readonly ok: true } & CheckpointResult) | { readonly ok: false; readonly message: string };

export class WalCheckpointer implements Disposable {
  private readonly path: string;
  private readonly fallBack: (reason: string) => void;
  private worker: Worker | undefined;
  private timer: NodeJS.Timeout | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  /** Flags of retired workers still closing their connections (see dispose). */
  private readonly closing = new Set<Int32Array>();
  private running = false;
  private dirty = false;
  private failed = false;
  private disposed = false;
  private readonly waiters: Array<(result: CheckpointResult | undefined) => void> = [];

  private readonly idleMs: number;
  /** While no worker runs, commits leaving the WAL file at most this large start none (0: every commit does). */
  private readonly lightBytes: number;
  /** Lets the WAL start over when writes never leave it fully copied (walRestart.ts). */
  private readonly restart: WalRestart;

  /** `fallBack` is called once if checkpoints cannot run off the event loop. */
  constructor(path: string, fallBack: (reason: string) => void, options: { idleMs?: number; restartPages?: number | undefined; lightBytes?: number } = {}) {
    this.path = path;
    this.fallBack = fallBack;
    this.idleMs = options.idleMs ?? IDLE_MS;
    this.lightBytes = options.lightBytes ?? LIGHT_WAL_BYTES;
    this.restart = new WalRestart({ maxPages: options.restartPages });
  }

  /** Called before an outermost BEGIN on the store's connection (see walRestart.ts); nothing once checkpoints fell back to SQLite. */
  beforeBegin(db: DatabaseSync): void {
    if (!this.failed && !this.disposed) this.restart.beforeBegin(db);
  }

  /** Whether a worker (and its connection) is open now. */
  get active(): boolean {
    return this.worker !== undefined;
  }

  /** Called after each commit: a checkpoint follows within INTERVAL_MS, unless the writes so far are light (see above). */
  written(): void {
    if (this.disposed || this.failed) return;
    this.dirty = true;
    if (this.running || this.timer) return;
    if (this.worker === undefined && this.walBytes() <= this.lightBytes) return;
    this.timer = setTimeout(() => this.run(), INTERVAL_MS);
    // Pending checkpoints never keep a process alive; closing the store checkpoints anyway.
    this.timer.unref();
  }

  /** Resolves after the next checkpoint (undefined if none can run); for tests and measurements. */
  next(): Promise<CheckpointResult | undefined> {
    if (this.disposed || this.failed) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      this.waiters.push(resolve);
      this.dirty = true;
      if (this.running) return;
      clearTimeout(this.timer);
      this.run();
    });
  }

  /** The WAL file's size: frames are appended past its end only once it holds more than it did (0 if there is none). */
  private walBytes(): number {
    return statSync(`${this.path}-wal`, { throwIfNoEntry: false })?.size ?? 0;
  }

  private run(): void {
    this.timer = undefined;
    if (this.disposed || this.failed || !this.dirty) return;
    clearTimeout(this.idleTimer);
    const worker = this.start();
    if (!worker) return;
    this.dirty = false;
    this.running = true;
    // Held while a checkpoint runs (someone may await it); let go between checkpoints.
    worker.ref();
    worker.postMessage({});
  }

  private start(): Worker | undefined {
    if (this.worker) return this.worker;
    try {
      const worker = new Worker(source, { eval: true, workerData: { path: this.path }, execArgv: ['--disable-warning=ExperimentalWarning'] });
      worker.on('message', (reply: Reply) => this.answered(reply));
      worker.on('error', (error) => {
        if (this.worker === worker) this.fail(error.message);
      });
      worker.on('exit', () => {
        if (this.worker === worker) this.fail('the checkpoint worker stopped');
      });
      this.worker = worker;
      return worker;
    } catch (error) {
      this.fail((error as Error).message);
      return undefined;
    }
  }

  private answered(reply: Reply): void {
    this.running = false;
    this.worker?.unref();
    // A failed checkpoint (a full disk, a busy file) leaves the WAL as it was: the next one retries.
    const result = reply.ok ? { log: reply.log, checkpointed: reply.checkpointed } : undefined;
    if (result) this.restart.checkpointed(result);
    for (const resolve of this.waiters.splice(0)) resolve(result);
    if (this.dirty) this.written();
    else if (!this.disposed && !this.failed) {
      clearTimeout(this.idleTimer);
      this.idleTimer = setTimeout(() => this.retire(), this.idleMs);
      this.idleTimer.unref();
    }
  }

  /** Lets an idle worker go: it closes its connection and exits. */
  private retire(): void {
    const worker = this.worker;
    if (!worker || this.running || this.timer) return;
    this.worker = undefined;
    const closed = this.close(worker);
    worker.once('exit', () => this.closing.delete(closed));
  }

  private close(worker: Worker): Int32Array {
    const closed = new Int32Array(new SharedArrayBuffer(4));
    this.closing.add(closed);
    worker.postMessage({ close: true, closed });
    return closed;
  }

  private fail(reason: string): void {
    if (this.failed || this.disposed) return;
    this.failed = true;
    this.running = false;
    this.worker = undefined;
    clearTimeout(this.timer);
    clearTimeout(this.idleTimer);
    this.timer = undefined;
    for (const resolve of this.waiters.splice(0)) resolve(undefined);
    this.fallBack(reason);
  }

  /**
   * Closes the worker's connection before returning, so the store's own connection is the last one
   * and its close checkpoints and removes the WAL. Waits at most for one checkpoint in progress.
   */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    clearTimeout(this.idleTimer);
    for (const resolve of this.waiters.splice(0)) resolve(undefined);
    const worker = this.worker;
    this.worker = undefined;
    if (worker) this.close(worker);
    const deadline = Date.now() + CLOSE_WAIT_MS;
    for (const closed of this.closing) Atomics.wait(closed, 0, 0, Math.max(0, deadline - Date.now()));
    this.closing.clear();
    if (worker) void worker.terminate();
  }
}
