/**
 * The parts of a copy that read or write a whole store, in a process of its own with its own
 * connections, so neither the event loop nor the host's memory carries them: `VACUUM INTO` (the
 * fallback copy), and finishing a copy: rollback-journal mode (one self-contained file; an online
 * backup of a WAL store is itself marked WAL) and the summary of what it holds (MAX(updated) alone
 * reads every asset: 0.5 s at a million). A worker thread did this before; its isolate and SQLite's
 * pages added 13–19 MB to the data host for the length of each backup, the import's (taken before
 * every import) included, and that was the host's highest point of a day at 100k snippets
 * (docs/performance.md). VACUUM cannot stop half-way: a cancelled run is answered at once, the
 * process is stopped and its copy removed once it has ended.
 */
import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { SUMMARY_QUERIES, summaryOf, type StoreSummary } from './storeFile.ts';
import { removeBackupFile } from './backupFiles.ts';
import { lowerPriority } from '../childPriority.ts';
import { isRecord } from '../plainObjects.ts';

/** The job comes in SATCHEL_COPY_JOB (JSON); the answer is the last line written to stdout. */
const source = `
const { DatabaseSync } = process.getBuiltinModule('node:sqlite');
const job = JSON.parse(process.env.SATCHEL_COPY_JOB);
let db;
let reply;
try {
  if (job.vacuumFrom !== null) {
    // Opening creates a missing file: a store gone since (its host killed, its folder removed) is no copy of it.
    if (!process.getBuiltinModule('node:fs').existsSync(job.vacuumFrom)) throw new Error('the store is gone: ' + job.vacuumFrom);
    const from = new DatabaseSync(job.vacuumFrom);
    try {
      from.exec('PRAGMA busy_timeout = 10000');
      from.exec("VACUUM INTO '" + job.target.replaceAll("'", "''") + "'");
    } finally {
      from.close();
    }
  }
  db = new DatabaseSync(job.target);
  db.exec('PRAGMA journal_mode = DELETE');
  const values = {};
  for (const [key, sql] of Object.entries(job.queries)) {
    try {
      values[key] = db.prepare(sql).get().v;
    } catch {
      values[key] = null;
    }
  }
  reply = { ok: true, values };
} catch (error) {
  reply = { ok: false, message: String(error && error.message) };
} finally {
  if (db && db.isOpen) db.close();
}
process.stdout.write(JSON.stringify(reply) + '\\n');
`;

const SIZE_POLL_MS = 200;

export interface CopyProgress {
  readonly bytesDone: number;
  readonly bytesTotal: number;
}

export interface ProcessCopyOptions {
  readonly signal?: AbortSignal | undefined;
  readonly onProgress?: ((progress: CopyProgress) => void) | undefined;
}

/**
 * Finishes the copy at `target`, first writing it with `VACUUM INTO` from `vacuumFrom` when given
 * (progress is then the copy's size against the store's), and answers what it holds.
 */
export function finishInProcess(target: string, vacuumFrom: string | undefined, options: ProcessCopyOptions = {}): Promise<StoreSummary> {
  const bytesTotal = vacuumFrom !== undefined ? sizeOf(vacuumFrom) : 0;
  return new Promise<StoreSummary>((resolve, reject) => {
    const job = JSON.stringify({ target, vacuumFrom: vacuumFrom ?? null, queries: SUMMARY_QUERIES });
    const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', '-e', source], {
      // In VS Code, process.execPath is the editor's Electron: this makes it run as plain Node.
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1', SATCHEL_COPY_JOB: job },
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
    });
    lowerPriority(child);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-2000)));
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
      child.once('close', () => removeBackupFile(target));
      child.kill('SIGKILL');
      finish(() => reject(options.signal?.reason));
    };
    options.signal?.addEventListener('abort', cancel, { once: true });
    child.once('error', (error) => finish(() => reject(error)));
    child.once('close', (code, signal) =>
      finish(() => {
        const reply = replyOf(stdout);
        if (reply?.ok) resolve(summaryOf(reply.values));
        else reject(new Error(reply?.message ?? `the backup process ${signal ? `was killed by ${signal}` : `exited with code ${code}`}${stderr.trim() ? `: ${stderr.trim().split('\n').at(-1)}` : ''}`));
      }),
    );
  });
}

type Reply = { readonly ok: true; readonly values: Record<string, unknown> } | { readonly ok: false; readonly message: string };

function replyOf(stdout: string): Reply | undefined {
  const line = stdout.trim().split('\n').at(-1);
  if (!line) return undefined;
  try {
    const parsed: unknown = JSON.parse(line);
    if (!isRecord(parsed)) return undefined;
    if (parsed.ok === true && isRecord(parsed.values)) return { ok: true, values: parsed.values };
    if (parsed.ok === false && typeof parsed.message === 'string') return { ok: false, message: parsed.message };
    return undefined;
  } catch {
    return undefined;
  }
}

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}
