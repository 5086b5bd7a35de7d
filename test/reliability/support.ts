/**
 * Scaffolding of the reliability suite: host child processes, raw HTTP (any Host header, any
 * bytes), store fingerprints and the one figures line each test prints. Everything talks to
 * 127.0.0.1 only.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { createHash } from 'node:crypto';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { DatabaseSync } from 'node:sqlite';
import assert from 'node:assert/strict';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = join(ROOT, 'dist', 'cli.cjs');

/** The newest modification time under `dir` (recursively), in ms. */
function newest(dir: string): number {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

/**
 * The shipped CLI bundle, rebuilt with the project's own build when it is missing or older than
 * the sources (CI builds before this suite runs; a working tree may not have).
 */
export function ensureCliBuilt(): string {
  if (!existsSync(CLI) || statSync(CLI).mtimeMs < newest(join(ROOT, 'src'))) {
    const result = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: ROOT, encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`npm run build failed: ${result.stderr}`);
  }
  return CLI;
}

/** Prints `[reliability] name k=v …`; docs/reliability.md's figures are copied from these lines. */
export function figures(name: string, values: Record<string, string | number>): void {
  const parts = Object.entries(values).map(([key, value]) => `${key}=${value}`);
  console.log(`[reliability] ${name} ${parts.join(' ')}`);
}

const LOOP_WATCH = join(ROOT, 'test', 'reliability', 'loopWatch.cjs');

/**
 * One gap between turns of a host's event loop (loopWatch.cjs): ending at `at` (epoch ms), `wall` ms
 * long, of which `held` ms the host itself spent (the rest it waited for a CPU on a busy machine).
 */
export interface LoopHold {
  readonly at: number;
  readonly wall: number;
  readonly held: number;
}

function parseLoopLine(line: string): LoopHold | undefined {
  const match = /^\[loop\] at=(\d+) wall=(\d+) held=(\d+)$/.exec(line);
  return match ? { at: Number(match[1]), wall: Number(match[2]), held: Number(match[3]) } : undefined;
}

export interface HostEvent {
  readonly event: 'waiting' | 'serving' | 'failed';
  readonly pid: number;
  readonly port?: number;
  readonly message?: string;
}

/** A host process of the shipped CLI (`dist/cli.cjs --data-dir D --port 0`) and the events it has printed so far. */
export class HostProcess {
  readonly child: ChildProcess;
  readonly events: HostEvent[] = [];
  stderr = '';
  /** The host's event loop held past 50 ms, as loopWatch.cjs measured it (its lines are kept out of `stderr`). */
  readonly loopHolds: LoopHold[] = [];
  /** What the host printed on stdout (its info lines), line by line. */
  stdout = '';
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private readonly waiters = new Set<() => void>();

  /** `execArgv`: Node's own options for the host (a smaller heap limit, say). */
  constructor(dataDir: string, execArgv: readonly string[] = []) {
    this.child = spawn(process.execPath, ['--require', LOOP_WATCH, ...execArgv, ensureCliBuilt(), '--data-dir', dataDir, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const pid = this.child.pid!;
    this.exited = new Promise((resolve) =>
      this.child.once('exit', (code, signal) => {
        if (code !== 0 && signal === null && !this.events.some((e) => e.event === 'failed')) {
          this.events.push({ event: 'failed', pid, message: this.stderr.trim() });
        }
        resolve({ code, signal });
      }),
    );
    void this.exited.then(() => this.wake());
    createInterface({ input: this.child.stderr! }).on('line', (line) => {
      const hold = parseLoopLine(line);
      if (hold) this.loopHolds.push(hold);
      else this.stderr += `${line}\n`;
    });
    createInterface({ input: this.child.stdout! }).on('line', (line) => {
      this.stdout += `${line}\n`;
      const event = parseHostLine(line, pid);
      if (!event) return;
      this.events.push(event);
      this.wake();
    });
  }

  get pid(): number {
    return this.child.pid!;
  }

  get alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** The port once serving, else undefined. */
  get port(): number | undefined {
    return this.events.find((e) => e.event === 'serving')?.port;
  }

  private wake(): void {
    for (const waiter of [...this.waiters]) waiter();
  }

  /** Resolves with the first event of `kind`, or rejects after `timeoutMs` or when the process exits first. */
  waitFor(kind: HostEvent['event'], timeoutMs = 20_000): Promise<HostEvent> {
    return new Promise((resolve, reject) => {
      const check = (): boolean => {
        const found = this.events.find((e) => e.event === kind);
        if (found) {
          finish();
          resolve(found);
          return true;
        }
        if (!this.alive) {
          finish();
          reject(new Error(`host ${this.pid} exited before "${kind}": ${JSON.stringify(this.events)} ${this.stderr}`));
          return true;
        }
        return false;
      };
      const timer = setTimeout(() => {
        finish();
        reject(new Error(`host ${this.pid} did not report "${kind}" within ${timeoutMs} ms: ${this.stderr}`));
      }, timeoutMs);
      const finish = (): void => {
        clearTimeout(timer);
        this.waiters.delete(waiter);
      };
      const waiter = (): void => void check();
      this.waiters.add(waiter);
      check();
    });
  }

  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    if (this.alive) this.child.kill(signal);
    await this.exited;
  }
}

/** The CLI's "serving … on http://127.0.0.1:N" and "waiting to take over" lines. */
function parseHostLine(line: string, pid: number): HostEvent | undefined {
  const serving = /serving .* on http:\/\/127\.0\.0\.1:(\d+)/.exec(line);
  if (serving) return { event: 'serving', pid, port: Number(serving[1]) };
  if (/waiting to take over/.test(line)) return { event: 'waiting', pid };
  return undefined;
}

export interface RawReply {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: Buffer;
  readonly text: string;
  /** The body parsed as JSON, or undefined. */
  readonly json: unknown;
}

export interface RawRequest {
  readonly method?: string;
  readonly path: string;
  readonly headers?: Record<string, string>;
  readonly body?: string | Buffer;
  readonly timeoutMs?: number;
}

/** One request on its own connection, with full control of the headers and body bytes. */
export function raw(port: number, options: RawRequest): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { host: `127.0.0.1:${port}`, ...options.headers };
    const body = options.body === undefined ? undefined : Buffer.from(options.body);
    if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-length')) {
      headers['content-length'] = String(body.length);
    }
    const req = httpRequest(
      { host: '127.0.0.1', port, method: options.method ?? 'GET', path: options.path, headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const all = Buffer.concat(chunks);
          const text = all.toString('utf8');
          let json: unknown;
          try {
            json = text ? (JSON.parse(text) as unknown) : undefined;
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: all, text, json });
        });
      },
    );
    req.setTimeout(options.timeoutMs ?? 15_000, () => req.destroy(new Error(`timeout ${options.method} ${options.path}`)));
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

/**
 * Writes `bytes` on a fresh connection, half-closes it and returns the status line's code (0 when
 * the server closed without answering) and the body text. For truncated and malformed requests.
 */
export function rawBytes(port: number, bytes: Buffer, timeoutMs = 15_000): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    const chunks: Buffer[] = [];
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error('no answer to a raw request')));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // A reset after the answer was read is still an answer.
      if (error.code === 'ECONNRESET' && chunks.length > 0) finish();
      else reject(error);
    });
    socket.on('end', () => finish());
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      socket.destroy();
      const text = Buffer.concat(chunks).toString('utf8');
      const match = /^HTTP\/1\.[01] (\d{3})/.exec(text);
      const split = text.indexOf('\r\n\r\n');
      resolve({ status: match ? Number(match[1]) : 0, text: split === -1 ? '' : text.slice(split + 4) });
    };
    socket.write(bytes, () => socket.end());
  });
}

/** The `{ error: { code, message } }` code of a reply, or undefined when it is not that shape. */
export function jsonErrorCode(reply: { json: unknown }): string | undefined {
  const body = reply.json as { jsonrpc?: unknown; error?: { code?: unknown; message?: unknown; data?: { code?: unknown } } } | undefined;
  const error = body?.error;
  if (typeof error?.message !== 'string') return undefined;
  if (typeof error.code === 'string') return error.code;
  // The JSON-RPC endpoint (/mcp) answers in JSON-RPC's shape: a numeric code, with the host's own
  // code in `data` when the host refused the body before the MCP transport saw it.
  if (body?.jsonrpc === '2.0' && typeof error.code === 'number') return typeof error.data?.code === 'string' ? error.data.code : `jsonrpc ${error.code}`;
  return undefined;
}

/**
 * A digest of every row of every table (in a fixed order), so "the store is unchanged" is one
 * string comparison that names the tables that changed. Runs on the caller's connection, so it
 * sees committed data only.
 */
export function storeDigest(db: DatabaseSync): string {
  const parts: string[] = [];
  const tables = db
    .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .all() as Array<{ name: string }>;
  for (const { name } of tables) {
    const quoted = `"${name.replaceAll('"', '""')}"`;
    // 64-bit integers (fingerprint hashes) do not fit a JS number: read them as BigInt.
    const read = (sql: string): unknown[] => {
      const statement = db.prepare(sql);
      statement.setReadBigInts(true);
      return statement.all();
    };
    let rows: unknown[];
    try {
      rows = read(`SELECT * FROM ${quoted} ORDER BY 1, 2`);
    } catch {
      // Virtual tables (full-text indexes) and one-column tables refuse ORDER BY 1, 2.
      rows = read(`SELECT * FROM ${quoted}`);
    }
    const text = JSON.stringify(rows, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value));
    parts.push(`${name}:${createHash('sha256').update(text).digest('hex').slice(0, 16)}`);
  }
  return parts.join('\n');
}

/** The p-th percentile (0–100) of `values`. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Creates a custom model whose file is `unique` (a loopback URL) and answers its id. */
export async function createCustomModel(port: number, model: { name: string; unique: string; bytes?: number }): Promise<string> {
  const reply = await raw(port, {
    method: 'POST',
    path: '/models/create',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      version: '1',
      created: { value: new Date().toISOString() },
      name: model.name,
      cloud: false,
      type: 'BALANCED',
      usage: 'CODE_CONVERSATION',
      foundation: 'UNKNOWN',
      unique: model.unique,
      cpu: true,
      ...(model.bytes !== undefined ? { bytes: { value: model.bytes } } : {}),
    }),
  });
  if (reply.status !== 200) throw new Error(`model create answered ${reply.status}: ${reply.text.slice(0, 300)}`);
  return (reply.json as { id: string }).id;
}

/** A process's resident memory now and at its peak so far, in MiB (Linux's /proc; throws elsewhere). */
export function processMemory(pid: number): { rss_mib: number; rss_peak_mib: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const mib = (name: string): number => {
    const match = new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status);
    if (!match) throw new Error(`no ${name} in /proc/${pid}/status`);
    return Math.round(Number(match[1]) / 1024);
  };
  return { rss_mib: mib('VmRSS'), rss_peak_mib: mib('VmHWM') };
}

/**
 * Waits for the one-off secrets scan a store written before it gets when first opened (every snippet
 * pending: docs/secrets.md), and returns the host's memory then and the longest its event loop was
 * held meanwhile; its peak is then reset
 * (/proc/<pid>/clear_refs), so what a test measures next is what its own requests cost.
 */
export async function afterUpgradeScan(host: HostProcess, port: number, timeoutMs = 300_000): Promise<{ rss_mib: number; rss_peak_mib: number; scan_ms: number; loop_held_ms: number }> {
  const started = performance.now();
  const from = Date.now();
  for (;;) {
    const reply = await raw(port, { path: '/satchel/secrets/summary', timeoutMs: 30_000 });
    const scan = (reply.json as { scan?: { pending?: number } } | null | undefined)?.scan;
    if (reply.status === 200 && scan?.pending === 0) break;
    if (performance.now() - started > timeoutMs) throw new Error(`the secrets scan did not finish: ${reply.status} ${reply.text.slice(0, 200)}`);
    await sleep(250);
  }
  const memory = processMemory(host.pid);
  resetPeakMemory(host.pid);
  // The longest the host's loop was held meanwhile (loopWatch.cjs; 0: never past 50 ms).
  return { ...memory, scan_ms: Math.round(performance.now() - started), loop_held_ms: heldSince(host, from) };
}

/**
 * The longest hold of `host`'s event loop (less its waits for a CPU) since `from` (epoch ms); a gap
 * that began before counts only its part since (the host's start-up work just before a probe).
 */
export function heldSince(host: HostProcess, from: number): number {
  return host.loopHolds.filter((hold) => hold.at >= from).reduce((longest, hold) => Math.max(longest, Math.min(hold.held, hold.at - from)), 0);
}

/** Resets the process's peak RSS (VmHWM), so the next reading of it is what came after. */
export function resetPeakMemory(pid: number): void {
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
}

/** Opens the store read-only beside a running host (what a backup tool would see) and asserts PRAGMA integrity_check passes; `more` checks more on the same connection. */
export function assertIntegrity(file: string, more?: (db: DatabaseSync) => void): void {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    const rows = db.prepare('PRAGMA integrity_check').all() as Array<{ integrity_check: string }>;
    assert.equal(rows.map((r) => r.integrity_check).join('; '), 'ok');
    more?.(db);
  } finally {
    db.close();
  }
}
