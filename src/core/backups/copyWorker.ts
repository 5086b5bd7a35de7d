/**
 * The parts of a copy that read or write a whole store, on a worker thread with connections of its
 * own, so the event loop never waits for them: `VACUUM INTO` (the fallback copy), and finishing a
 * copy: rollback-journal mode (one self-contained file; an online backup of a WAL store is itself
 * marked WAL) and the summary of what it holds (MAX(updated) alone reads every asset: 0.5 s at a
 * million). VACUUM cannot stop half-way: a cancelled run is answered at once and its copy removed
 * once the worker ends.
 */
import { Worker } from 'node:worker_threads';
import { statSync } from 'node:fs';
import { SUMMARY_QUERIES, summaryOf, type StoreSummary } from './storeFile.ts';
import { removeBackupFile } from './backupFiles.ts';

// Self-contained CommonJS: an eval worker needs no file beside the bundle.
const source = `
const { parentPort, workerData } = require('node:worker_threads');
const { DatabaseSync } = process.getBuiltinModule('node:sqlite');
let db;
try {
  if (workerData.vacuumFrom !== undefined) {
    const from = new DatabaseSync(workerData.vacuumFrom);
    try {
      from.exec('PRAGMA busy_timeout = 10000');
      from.exec("VACUUM INTO '" + workerData.target.replaceAll("'", "''") + "'");
    } finally {
      from.close();
    }
  }
  db = new DatabaseSync(workerData.target);
  db.exec('PRAGMA journal_mode = DELETE');
  const values = {};
  for (const [key, sql] of Object.entries(workerData.queries)) {
    try {
      values[key] = db.prepare(sql).get().v;
    } catch {
      values[key] = null;
    }
  }
  parentPort.postMessage({ ok: true, values });
} catch (error) {
  parentPort.postMessage({ ok: false, message: String(error && error.message) });
} finally {
  if (db && db.isOpen) db.close();
}
`;

const SIZE_POLL_MS = 200;

export interface CopyProgress {
  readonly bytesDone: number;
  readonly bytesTotal: number;
}

type Reply = { readonly ok: true; readonly values: Record<string, unknown> } | { readonly ok: false; readonly message: string };

export interface WorkerCopyOptions {
  readonly signal?: AbortSignal | undefined;
  readonly onProgress?: ((progress: CopyProgress) => void) | undefined;
}

/**
 * Finishes the copy at `target`, first writing it with `VACUUM INTO` from `vacuumFrom` when given
 * (progress is then the copy's size against the store's), and answers what it holds.
 */
export function finishOffThread(target: string, vacuumFrom: string | undefined, options: WorkerCopyOptions = {}): Promise<StoreSummary> {
  const bytesTotal = vacuumFrom !== undefined ? sizeOf(vacuumFrom) : 0;
  return new Promise<StoreSummary>((resolve, reject) => {
    const worker = new Worker(source, {
      eval: true,
      workerData: { target, vacuumFrom, queries: SUMMARY_QUERIES },
      execArgv: ['--disable-warning=ExperimentalWarning'],
    });
    let settled = false;
    const poll = vacuumFrom !== undefined ? setInterval(() => options.onProgress?.({ bytesDone: Math.min(sizeOf(target), bytesTotal), bytesTotal }), SIZE_POLL_MS) : undefined;
    const finish = (outcome: () => void): void => {
      if (settled) return;
      settled = true;
      clearInterval(poll);
      options.signal?.removeEventListener('abort', cancel);
      outcome();
    };
    const cancel = (): void => {
      void worker.terminate().then(() => removeBackupFile(target));
      finish(() => reject(options.signal?.reason));
    };
    options.signal?.addEventListener('abort', cancel, { once: true });
    worker.once('message', (reply: Reply) => finish(() => (reply.ok ? resolve(summaryOf(reply.values)) : reject(new Error(reply.message)))));
    worker.once('error', (error) => finish(() => reject(error)));
    worker.once('exit', () => finish(() => reject(new Error('the backup worker stopped'))));
  });
}

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}
