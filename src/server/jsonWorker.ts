/**
 * Parses large JSON bodies on a worker thread. Decoding, the depth check and JSON.parse of a
 * 64 MiB body take about a second of CPU; on the event loop that second is a second in which
 * health, SIGTERM and every other caller wait. The bytes are moved to the worker, not copied; the
 * parsed value comes back by structured clone, which costs the event loop per string and object
 * (ten million short strings: 4 s), so bodies with more of those than `maxNodes` are refused in
 * the worker before they are parsed. Numbers cost less each but not nothing (fifteen million: 0.3
 * to 1 s on a loaded machine), so a body for a known operation is checked with that operation's
 * schema in the worker (jsonWorkerThread.ts) and only what the schema keeps comes back.
 */
import { Worker } from 'node:worker_threads';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Disposable } from '../core/events.ts';
import { Calls } from '../core/rpc/calls.ts';
import { UnavailableError } from '../core/errors.ts';
import type { ParseLimits, ParseOutcome, ParseReply } from './jsonProtocol.ts';

export type { ParseLimits, ParseOutcome } from './jsonProtocol.ts';

/** The worker's bundle, built beside the host's (esbuild.mjs); the TypeScript source when run from sources (tests). */
export const bundledJsonWorker = 'jsonWorker.cjs';

function workerFile(): URL {
  // A CommonJS bundle has __dirname and no import.meta; the ES module sources have the reverse.
  if (typeof __dirname === 'string') return pathToFileURL(path.join(__dirname, bundledJsonWorker));
  return new URL('./jsonWorkerThread.ts', import.meta.url);
}

/**
 * Idle this long, the worker ends (issue 34): its heap grew to parse the last bodies (an import's
 * 16 MB requests) and V8 keeps what it grew to; a burst of bodies (one import) reuses one worker,
 * the next burst starts another (tens of milliseconds).
 */
export const JSON_WORKER_IDLE_MS = 10_000;

/** One worker, started on the first large body and ended when idle; requests are answered in order. */
export class JsonWorker implements Disposable {
  private worker: Worker | undefined;
  private readonly calls = new Calls<ParseOutcome>();
  private disposed = false;
  private readonly idleMs: number;
  private idle: NodeJS.Timeout | undefined;

  constructor(idleMs = JSON_WORKER_IDLE_MS) {
    this.idleMs = idleMs;
  }

  /** Whether a worker thread is running now. */
  get running(): boolean {
    return this.worker !== undefined;
  }

  /** `operation`: the declared name of the operation whose schema checks the value (jsonWorkerThread.ts). */
  parse(bytes: Buffer, limits: ParseLimits, operation?: string): Promise<ParseOutcome> {
    if (this.disposed) return Promise.reject(closing());
    const worker = this.start();
    clearTimeout(this.idle);
    // A buffer that owns its whole ArrayBuffer is moved; a slice of a shared one is copied, into an
    // ArrayBuffer of its own (Buffer.from would take a small copy from Node's pool, which cannot move).
    const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && !(bytes.buffer instanceof SharedArrayBuffer);
    const payload = whole ? bytes : new Uint8Array(bytes);
    return this.calls.call((id) => {
      if (this.calls.size === 1) worker.ref();
      worker.postMessage({ id, bytes: payload, ...limits, ...(operation !== undefined ? { operation } : {}) }, [payload.buffer as ArrayBuffer]);
    }).reply;
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(workerFile());
    worker.unref();
    worker.on('message', (message: ParseReply) => {
      this.calls.deliver(message.id, message);
      if (this.calls.size > 0) return;
      worker.unref();
      clearTimeout(this.idle);
      this.idle = setTimeout(() => this.end(worker), this.idleMs).unref();
    });
    const fail = (error: Error): void => {
      // A worker that died (out of memory on a hostile body) fails its requests; the next starts anew.
      if (this.worker === worker) this.worker = undefined;
      this.calls.failAll(error);
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`The JSON parser stopped (exit code ${code}).`)));
    this.worker = worker;
    return worker;
  }

  /** Ends an idle worker (none of its calls is waiting); the next large body starts another. */
  private end(worker: Worker): void {
    if (this.worker !== worker || this.calls.size > 0) return;
    this.worker = undefined;
    void worker.terminate();
  }

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.idle);
    // The host is stopping (SIGTERM while a large body is parsed): an expected end, a domain error
    // (503, no stack logged), failed before terminate() so the worker's exit code is not reported.
    this.calls.failAll(closing());
    void this.worker?.terminate();
    this.worker = undefined;
  }
}

function closing(): UnavailableError {
  return new UnavailableError('Satchel is closing; the request body was not read.');
}
