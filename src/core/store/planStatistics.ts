/**
 * Keeps the query planner's statistics (sqlite_stat1) in step with the store's size, the way
 * SQLite ≥ 3.46 recommends for a long-lived connection: `PRAGMA optimize=0x10002` when it opens
 * (every table checked, not only those it used) and again from time to time, here after every
 * COMMITS_PER_CHECK commits, after an import and every CHECK_INTERVAL_MS, besides the
 * `PRAGMA optimize` the store runs when it closes. SQLite (3.51) re-analyzes a table once its size
 * is about ten times, or a tenth of, what its statistics say.
 *
 * Why: statistics are written by that close, and a store closed while it held one snippet keeps
 * statistics saying its tables have one row. Grown since by an import (10k or 100k snippets), the
 * planner then joined each word-search hit to `assets` through the listing index instead of by
 * rowid (1.4 s a search at 100k assets, 19.7 s at 1M, against 0.3 ms) and deleted an asset's
 * formats with a scan of `asset_formats` (10 ms an asset at 100k, 372 ms at 1M, against 0.1 ms).
 *
 * Where: the check (which tables `PRAGMA optimize` would analyze, by the statistics this
 * connection plans with) costs about 0.2 ms at 1M assets and runs on the store's connection; the
 * analysis runs on a worker thread with a connection of its own, one table per statement (so one
 * transaction, and one hold of the write lock, per table) with ANALYSIS_LIMIT. Measured at 100k
 * assets, a whole `PRAGMA optimize=0x10002` took 360–390 ms on the event loop, and 5.0 s at 1M;
 * per table with the limit, 1–30 ms at 100k and at most 166 ms (links) at 1M. The store's
 * connection then loads what the worker wrote with `ANALYZE sqlite_schema` (0.1 ms), which also
 * has its prepared statements planned again: statistics another connection writes (the worker's,
 * an import process's) are not seen until then.
 */
import { Worker } from 'node:worker_threads';
import type { DatabaseSync } from 'node:sqlite';
import type { Disposable } from '../lifecycle.ts';
import { SQLITE_BUSY, SQLITE_LOCKED, sqliteCode } from './storageErrors.ts';

/** Rows SQLite's ANALYZE reads of each index (PRAGMA analysis_limit); 100–1000 is SQLite's advice. */
export const ANALYSIS_LIMIT = 1000;
/** A check after this many commits: an in-process import or a sync grows the store by its own commits. */
const COMMITS_PER_CHECK = 1000;
/** And at least this often, for growth by other connections that no import announced. */
const CHECK_INTERVAL_MS = 4 * 60 * 60 * 1000;
/** How long the worker waits for another connection's write lock (an import's batch) before giving up until the next check. */
const WORKER_BUSY_MS = 5000;
/** How long closing waits for the worker to finish the table it is analyzing and close its connection. */
const CLOSE_WAIT_MS = 10_000;
/** The check and the loading of new statistics need the write lock for a moment; tried again this often while another connection holds it. */
const RETRY_MS = 50;
const RETRY_ATTEMPTS = 200;
/** Tables smaller than this are not analyzed (see staleTables). */
const MIN_ROWS = 100;

// Self-contained CommonJS (an eval worker needs no file beside the bundle). It stops between
// tables when asked and always closes its connection before saying so.
const source = `
const { parentPort, workerData } = require('node:worker_threads');
const { DatabaseSync } = process.getBuiltinModule('node:sqlite');
const { path, tables, limit, busyMs, stop, closed } = workerData;
const analyzed = [];
let db;
try {
  db = new DatabaseSync(path);
  db.exec('PRAGMA busy_timeout = ' + busyMs);
  db.exec('PRAGMA analysis_limit = ' + limit);
  for (const table of tables) {
    if (Atomics.load(stop, 0) === 1) break;
    const started = performance.now();
    db.exec('ANALYZE "main"."' + table.replaceAll('"', '""') + '"');
    analyzed.push({ table, ms: performance.now() - started });
  }
  parentPort.postMessage({ ok: true, analyzed });
} catch (error) {
  parentPort.postMessage({ ok: false, analyzed, message: String(error && error.message) });
} finally {
  try { db && db.close(); } catch {}
  Atomics.store(closed, 0, 1);
  Atomics.notify(closed, 0);
}
`;

export interface AnalyzedTable {
  readonly table: string;
  readonly ms: number;
}

/** What one refresh did. */
export interface StatisticsRefresh {
  /** Tables analyzed, in order, with the time each took on the worker. */
  readonly analyzed: readonly AnalyzedTable[];
  /** From the check to the statistics loaded by the store's connection. */
  readonly ms: number;
  /** Why the refresh stopped short (its tables' statistics stay as they were until the next check). */
  readonly failure?: string;
}

type Reply = { readonly ok: true; readonly analyzed: AnalyzedTable[] } | { readonly ok: false; readonly analyzed: AnalyzedTable[]; readonly message: string };

export interface PlanStatisticsHooks {
  /** The database file. */
  readonly path: string;
  /** The store's connection, whose planner the statistics are for. */
  readonly db: DatabaseSync;
  /** The connection's busy timeout, restored after each step taken without waiting for the write lock. */
  readonly busyTimeoutMs: () => number;
  /** Held while the worker analyzes: the store's grouped writes wait for its lock between turns of the event loop. */
  readonly holdWriters: () => Disposable;
  /** Told of each refresh that analyzed something or failed. */
  readonly refreshed?: (refresh: StatisticsRefresh) => void;
}

export class PlanStatistics implements Disposable {
  private readonly hooks: PlanStatisticsHooks;
  private commits = 0;
  private readonly interval: NodeJS.Timeout;
  private scheduled: NodeJS.Immediate | undefined;
  private running: Promise<void> | undefined;
  private worker: { readonly stop: Int32Array; readonly closed: Int32Array } | undefined;
  private disposed = false;

  constructor(hooks: PlanStatisticsHooks) {
    this.hooks = hooks;
    this.interval = setInterval(() => this.refresh(), CHECK_INTERVAL_MS);
    this.interval.unref();
  }

  /** Called after each commit of the store's connection. */
  written(): void {
    if (++this.commits >= COMMITS_PER_CHECK) this.refresh();
  }

  /** Checks the statistics on a coming turn of the event loop (once, however often it is asked meanwhile), and refreshes those out of step. */
  refresh(): void {
    if (this.disposed || this.scheduled) return;
    this.commits = 0;
    this.scheduled = setImmediate(() => {
      this.scheduled = undefined;
      // One refresh at a time; one asked for meanwhile runs after it.
      const previous = this.running ?? Promise.resolve();
      const run: Promise<void> = previous
        .then(() => this.check())
        .catch((error: unknown) => {
          // A store closed meanwhile, or a check SQLite refused: statistics stay as they were until the next check.
          if (!this.disposed) this.hooks.refreshed?.({ analyzed: [], ms: 0, failure: (error as Error).message });
        })
        .finally(() => {
          if (this.running === run) this.running = undefined;
        });
      this.running = run;
    });
    this.scheduled.unref();
  }

  /** Resolves once no check is scheduled or running (for tests and figures). */
  async settled(): Promise<void> {
    while (this.scheduled || this.running) {
      if (this.running) await this.running;
      else await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /**
   * The tables `PRAGMA optimize=0x10002` would analyze now, judged by the statistics this
   * connection planned with, but only those of at least MIN_ROWS rows (a smaller table is quick to
   * read whatever the plan, and its statistics are the kind that misleads once it grows) and, of
   * the tables without an index, only those that already have statistics: SQLite plans one without
   * as a large table, which is right for each of ours, and the `PRAGMA optimize` of a close never
   * writes any for them.
   */
  staleTables(): string[] {
    const { db } = this.hooks;
    if (!db.isOpen) return [];
    const lines = (db.prepare('PRAGMA optimize(0x10003)').all() as Array<Record<string, unknown>>).map((row) => String(Object.values(row)[0]));
    const indexed = db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'index' AND tbl_name = ? LIMIT 1");
    const statistics = db.prepare("SELECT 1 FROM sqlite_schema WHERE name = 'sqlite_stat1'").get() ? db.prepare('SELECT 1 FROM sqlite_stat1 WHERE tbl = ? LIMIT 1') : undefined;
    const tables: string[] = [];
    for (const line of lines) {
      const table = /^ANALYZE "main"\."((?:[^"]|"")+)"$/.exec(line)?.[1]?.replaceAll('""', '"');
      if (table === undefined || (!indexed.get(table) && !statistics?.get(table))) continue;
      const rows = db.prepare(`SELECT count(*) AS n FROM (SELECT 1 FROM "main"."${table.replaceAll('"', '""')}" LIMIT ${MIN_ROWS})`).get() as { n: number };
      if (rows.n >= MIN_ROWS) tables.push(table);
    }
    return tables;
  }

  private async check(): Promise<void> {
    if (this.disposed) return;
    const started = performance.now();
    // Checking every table holds a write transaction for its moment (SQLite codes it so once two
    // or more tables are looked at), so it waits its turn as loading new statistics does.
    const tables = await this.withoutWaiting(() => this.staleTables());
    if (tables === undefined || tables.length === 0) return;
    const held = this.hooks.holdWriters();
    let reply: Reply;
    try {
      reply = await this.analyze(tables);
    } finally {
      held.dispose();
    }
    if (this.disposed) return;
    let failure = reply.ok ? undefined : reply.message;
    const reload = (): boolean => {
      this.hooks.db.exec('ANALYZE sqlite_schema');
      return true;
    };
    const reloaded = reply.analyzed.length === 0 || (await this.withoutWaiting(reload)) === true;
    if (!reloaded) failure ??= 'the store stayed busy, so its connection did not load the new statistics';
    if (this.disposed) return;
    this.hooks.refreshed?.({ analyzed: reply.analyzed, ms: performance.now() - started, ...(failure === undefined ? {} : { failure }) });
  }

  /** Runs ANALYZE on `tables` on a worker thread; resolves with what it did. */
  private analyze(tables: readonly string[]): Promise<Reply> {
    const stop = new Int32Array(new SharedArrayBuffer(4));
    const closed = new Int32Array(new SharedArrayBuffer(4));
    return new Promise<Reply>((resolve) => {
      let worker: Worker;
      try {
        worker = new Worker(source, {
          eval: true,
          workerData: { path: this.hooks.path, tables, limit: ANALYSIS_LIMIT, busyMs: WORKER_BUSY_MS, stop, closed },
          execArgv: ['--disable-warning=ExperimentalWarning'],
        });
      } catch (error) {
        resolve({ ok: false, analyzed: [], message: (error as Error).message });
        return;
      }
      this.worker = { stop, closed };
      let answered = false;
      const answer = (reply: Reply): void => {
        if (answered) return;
        answered = true;
        this.worker = undefined;
        resolve(reply);
      };
      worker.on('message', answer);
      worker.on('error', (error) => answer({ ok: false, analyzed: [], message: error.message }));
      worker.on('exit', () => answer({ ok: false, analyzed: [], message: 'the statistics worker stopped' }));
    });
  }

  /**
   * Runs `step`, which needs SQLite's write lock for a moment, without waiting for it in SQLite's
   * busy handler (on the event loop): while another connection holds it (an import's batch), tried
   * again a little later. Undefined when the store stayed busy or closed.
   */
  private async withoutWaiting<T>(step: () => T): Promise<T | undefined> {
    const { db } = this.hooks;
    for (let attempt = 0; attempt < RETRY_ATTEMPTS; attempt++) {
      if (this.disposed || !db.isOpen) return undefined;
      db.exec('PRAGMA busy_timeout = 0');
      try {
        return step();
      } catch (error) {
        const code = sqliteCode(error);
        if (code !== SQLITE_BUSY && code !== SQLITE_LOCKED) throw error;
      } finally {
        db.exec(`PRAGMA busy_timeout = ${this.hooks.busyTimeoutMs()}`);
      }
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
    return undefined;
  }

  /** Stops the worker after the table it is analyzing and waits for its connection to close, so the store's own is the last. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    clearInterval(this.interval);
    if (this.scheduled) clearImmediate(this.scheduled);
    this.scheduled = undefined;
    const worker = this.worker;
    if (!worker) return;
    Atomics.store(worker.stop, 0, 1);
    Atomics.wait(worker.closed, 0, 0, CLOSE_WAIT_MS);
  }
}
