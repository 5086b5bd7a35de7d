/**
 * Copies the WAL back into the database file in a child process, with a connection of its own.
 *
 * SQLite's automatic checkpoint runs inside the COMMIT that takes the WAL past 1,000 pages, on the
 * event loop, and writes those pages into the database file and syncs it twice. Measured at 100k
 * assets on this project's machine, that COMMIT took 30–270 ms once every few dozen creates, and
 * creates ran at 362–403/s against 686–769/s with the checkpoint moved off the event loop. A
 * checkpoint only copies what the WAL already holds durably, so where it runs changes nothing about
 * what survives a crash: commits are still acknowledged after their WAL write is synced.
 *
 * Why a process and not a worker thread (as until stop 41): a worker costs the host 15–19 MB of
 * resident memory while it runs and Node 24 keeps 13–15 MB of it after the worker ends (measured in
 * a bare Node 24, docs/performance.md); a process gives all of its memory back when it ends. It
 * starts with the first checkpoint due (a store opened, written briefly and closed never starts one)
 * and is let go once writes have stopped for IDLE_MS. It reads one line a checkpoint on stdin and
 * answers one JSON line; when its stdin ends — the host let it go, or died — it closes its
 * connection and exits, so a host killed mid-write leaves a process that empties the WAL as it goes.
 * If it cannot run, `fallBack` hands checkpoints back to SQLite.
 *
 * Light writes do not start it (issue 34): while none runs, a commit that leaves the WAL file
 * within LIGHT_WAL_BYTES schedules nothing; the WAL keeps those commits, synced as before, until
 * writes take it past that size or the store closes (its connection, the last, checkpoints then).
 * At 100k snippets a copy's record is about 4 frames of the WAL, a save about 60.
 * The file's size tells the frames written since the WAL last started over: it starts over from its
 * first frame, trimmed back to WAL_LIMIT_BYTES, and grows only as frames pass its end.
 */
import { statSync } from 'node:fs';
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { Socket } from 'node:net';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import type { DatabaseSync } from 'node:sqlite';
import type { Disposable } from '../events.ts';
import { WalRestart } from './walRestart.ts';

/** A checkpoint runs at most this often while writes go on (the WAL grows meanwhile, by what they wrote). */
const INTERVAL_MS = 250;
/** A process with no checkpoint to do for this long ends (the next write starts another). */
const IDLE_MS = 5_000;
/** How long `stop` waits for the process to finish a checkpoint and close its connection before killing it. */
const CLOSE_WAIT_MS = 10_000;
/**
 * The store's journal_size_limit (database.ts): a checkpointed WAL starts over and is trimmed back
 * to this, so a WAL file no larger holds at most this much (about 1,000 frames of 4 KiB pages).
 */
export const WAL_LIMIT_BYTES = 4 * 1024 * 1024;
/**
 * While no process runs, commits leaving the WAL file at most this large start none: about 4,000
 * frames of 4 KiB pages, 4 times SQLite's own checkpoint mark (a WAL that size is read and recovered
 * as fast; it is about 70 saves at 100k snippets, copied in one checkpoint).
 */
export const LIGHT_WAL_BYTES = 16 * 1024 * 1024;

// Self-contained CommonJS run with -e: nothing to ship beside the bundle. PASSIVE never takes the
// writer's lock, so the host's transactions neither wait for it nor make it fail.
const source = `
const { DatabaseSync } = process.getBuiltinModule('node:sqlite');
const path = process.env.SATCHEL_CHECKPOINT_DATABASE;
// Opening creates a missing file: a host killed as it started this process, its folder then removed,
// would leave an empty store behind.
if (!process.getBuiltinModule('node:fs').existsSync(path)) {
  process.stderr.write('the store is gone: ' + path + '\\n');
  process.exit(1);
}
const db = new DatabaseSync(path);
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
const lines = require('node:readline').createInterface({ input: process.stdin });
lines.on('line', () => {
  let reply;
  try {
    const row = checkpoint.get();
    reply = { ok: true, log: row.log, checkpointed: row.checkpointed };
  } catch (error) {
    reply = { ok: false, message: String(error && error.message) };
  }
  process.stdout.write(JSON.stringify(reply) + '\\n');
});
lines.on('close', () => {
  db.close();
  process.exit(0);
});
`;

export interface CheckpointResult {
  /** Pages in the WAL and pages of it now in the database file (equal when the checkpoint completed). */
  readonly log: number;
  readonly checkpointed: number;
}

type Reply = ({ readonly ok: true } & CheckpointResult) | { readonly ok: false; readonly message: string };

type CheckpointProcess = ChildProcessByStdio<Writable, Readable, Readable>;

export class WalCheckpointer implements Disposable {
  private readonly path: string;
  private readonly fallBack: (reason: string) => void;
  private child: CheckpointProcess | undefined;
  private timer: NodeJS.Timeout | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  /** Processes let go, until they have closed their connections and ended. */
  private readonly ending = new Map<CheckpointProcess, Promise<void>>();
  private running = false;
  private dirty = false;
  private failed = false;
  private disposed = false;
  private readonly waiters: Array<(result: CheckpointResult | undefined) => void> = [];

  private readonly idleMs: number;
  /** While no process runs, commits leaving the WAL file at most this large start none (0: every commit does). */
  private readonly lightBytes: number;
  /** Lets the WAL start over when writes never leave it fully copied (walRestart.ts). */
  private readonly restart: WalRestart;

  /**
   * Takes over the checkpoints of the store connection `db` (of the database at `path`): SQLite's
   * own are turned off, and turned back on (inside commits, as SQLite does by default) if the
   * checkpoint process cannot run; `fellBack` is then told why.
   */
  static forConnection(db: DatabaseSync, path: string, options: { restartPages?: number | undefined; fellBack?: (reason: string) => void }): WalCheckpointer {
    db.exec('PRAGMA wal_autocheckpoint = 0');
    const fallBack = (reason: string): void => {
      if (db.isOpen) db.exec('PRAGMA wal_autocheckpoint = 1000');
      options.fellBack?.(reason);
    };
    return new WalCheckpointer(path, fallBack, { restartPages: options.restartPages });
  }

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

  /** Whether a checkpoint process (and its connection) is open now. */
  get active(): boolean {
    return this.child !== undefined;
  }

  /** The checkpoint process's id while one runs; for tests and measurements. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Called after each commit: a checkpoint follows within INTERVAL_MS, unless the writes so far are light (see above). */
  written(): void {
    if (this.disposed || this.failed) return;
    this.dirty = true;
    if (this.running || this.timer) return;
    if (this.child === undefined && this.walBytes() <= this.lightBytes) return;
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
    const child = this.start();
    if (!child) return;
    this.dirty = false;
    this.running = true;
    // Held while a checkpoint runs (someone may await it); let go between checkpoints.
    holdLoop(child, true);
    child.stdin.write('\n');
  }

  private start(): CheckpointProcess | undefined {
    if (this.child) return this.child;
    let child: CheckpointProcess;
    try {
      child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', '-e', source], {
        // In VS Code, process.execPath is the editor's Electron: this makes it run as plain Node.
        env: { ...process.env, ELECTRON_RUN_AS_NODE: '1', SATCHEL_CHECKPOINT_DATABASE: this.path },
        stdio: ['pipe', 'pipe', 'pipe'],
        windowsHide: true,
      });
    } catch (error) {
      this.fail(error instanceof Error ? error.message : String(error));
      return undefined;
    }
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-2000)));
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (this.child === child) this.answered(parseReply(line));
    });
    // A pipe that breaks ends in 'exit' too.
    child.stdin.on('error', () => {});
    const exited = new Promise<void>((resolve) => {
      child.once('error', (error) => {
        if (this.child === child) this.fail(error.message);
        resolve();
      });
      child.once('exit', (code, signal) => {
        if (this.child === child) this.fail(`the checkpoint process ${signal ? `was killed by ${signal}` : `exited with code ${code}`}${reasonIn(stderr)}`);
        resolve();
      });
    });
    this.ending.set(child, exited);
    void exited.then(() => this.ending.delete(child));
    this.child = child;
    return child;
  }

  private answered(reply: Reply): void {
    this.running = false;
    if (this.child) holdLoop(this.child, false);
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

  /** Lets an idle process go: it closes its connection and ends. */
  private retire(): void {
    const child = this.child;
    if (!child || this.running || this.timer) return;
    this.child = undefined;
    child.stdin.end();
  }

  private fail(reason: string): void {
    if (this.failed || this.disposed) return;
    this.failed = true;
    this.running = false;
    this.child = undefined;
    clearTimeout(this.timer);
    clearTimeout(this.idleTimer);
    this.timer = undefined;
    for (const resolve of this.waiters.splice(0)) resolve(undefined);
    this.fallBack(reason);
  }

  /**
   * Lets the process go: it finishes a checkpoint under way, closes its connection and ends by
   * itself. Whichever connection closes last empties the WAL; `stop` waits for it, so that the
   * store's own is the last.
   */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    clearTimeout(this.idleTimer);
    for (const resolve of this.waiters.splice(0)) resolve(undefined);
    const child = this.child;
    this.child = undefined;
    child?.stdin.end();
  }

  /** Disposes, then waits until every checkpoint process has closed its connection and ended (killed after CLOSE_WAIT_MS). */
  async stop(): Promise<void> {
    this.dispose();
    await Promise.all(
      [...this.ending].map(async ([child, exited]) => {
        holdLoop(child, true);
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, CLOSE_WAIT_MS)));
        await Promise.race([exited, late]);
        clearTimeout(timer);
        if (this.ending.has(child)) {
          child.kill('SIGKILL');
          await exited;
        }
      }),
    );
  }
}

/** Whether the process keeps this one's event loop alive (only while a checkpoint is awaited). */
function holdLoop(child: CheckpointProcess, hold: boolean): void {
  if (hold) child.ref();
  else child.unref();
  // Its pipes are sockets, which hold the loop as well.
  for (const pipe of [child.stdin, child.stdout, child.stderr]) {
    if (!(pipe instanceof Socket)) continue;
    if (hold) pipe.ref();
    else pipe.unref();
  }
}

/** The error line of what the process wrote to stderr, as ": message" (Node prints the stack and its version after it). */
function reasonIn(stderr: string): string {
  const lines = stderr.split('\n').map((line) => line.trim()).filter((line) => line !== '');
  const error = lines.find((line) => /^\w*Error\b/.test(line)) ?? lines.at(-1);
  return error === undefined ? '' : `: ${error}`;
}

function parseReply(line: string): Reply {
  try {
    const reply: unknown = JSON.parse(line);
    if (typeof reply === 'object' && reply !== null && 'ok' in reply) {
      if (reply.ok === true && 'log' in reply && 'checkpointed' in reply && typeof reply.log === 'number' && typeof reply.checkpointed === 'number') return { ok: true, log: reply.log, checkpointed: reply.checkpointed };
      if (reply.ok === false && 'message' in reply && typeof reply.message === 'string') return { ok: false, message: reply.message };
    }
  } catch {
    // Below.
  }
  return { ok: false, message: `the checkpoint process answered ${JSON.stringify(line.slice(0, 200))}` };
}
