/**
 * Parses large JSON bodies on a worker thread. Decoding, the depth check and JSON.parse of a
 * 64 MiB body take about a second of CPU; on the event loop that second is a second in which
 * health, SIGTERM and every other caller wait. The bytes are moved to the worker, not copied; the
 * parsed value comes back by structured clone, which costs the event loop per string and object
 * (ten million short strings: 4 s), so bodies with more of those than `maxNodes` are refused in
 * the worker before they are parsed. Numbers (TransferableBytes) clone cheaply and are not counted.
 */
import { Worker } from 'node:worker_threads';
import type { Disposable } from '../core/events.ts';
import { Calls } from '../core/rpc/calls.ts';
import { UnavailableError } from '../core/errors.ts';
import { jsonShape } from './jsonDepth.ts';

export type ParseOutcome =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly code: 'invalid_encoding' | 'too_deep' | 'too_complex' | 'malformed_json'; readonly message: string };

export interface ParseLimits {
  readonly maxDepth: number;
  /** Strings, objects and arrays: what costs the receiving thread to rebuild (numbers are cheap). */
  readonly maxNodes: number;
}

// Self-contained CommonJS: an eval worker needs no file beside the bundle.
const source = `
const { parentPort } = require('node:worker_threads');
const decoder = new TextDecoder('utf-8', { fatal: true });
const jsonShape = ${jsonShape.toString()};
parentPort.on('message', ({ id, bytes, maxDepth, maxNodes }) => {
  let text;
  try {
    text = decoder.decode(bytes);
  } catch {
    return parentPort.postMessage({ id, ok: false, code: 'invalid_encoding', message: '' });
  }
  const shape = jsonShape(text);
  if (shape.depth > maxDepth) return parentPort.postMessage({ id, ok: false, code: 'too_deep', message: '' });
  if (shape.nodes > maxNodes) return parentPort.postMessage({ id, ok: false, code: 'too_complex', message: '' });
  let value;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return parentPort.postMessage({ id, ok: false, code: 'malformed_json', message: error.message });
  }
  parentPort.postMessage({ id, ok: true, value });
});
`;

/** One worker, started on the first large body; requests are answered in order. */
export class JsonWorker implements Disposable {
  private worker: Worker | undefined;
  private readonly calls = new Calls<ParseOutcome>();
  private disposed = false;

  parse(bytes: Buffer, limits: ParseLimits): Promise<ParseOutcome> {
    if (this.disposed) return Promise.reject(closing());
    const worker = this.start();
    // A buffer that owns its whole ArrayBuffer is moved; a slice of a shared one is copied.
    const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && !(bytes.buffer instanceof SharedArrayBuffer);
    const payload = whole ? bytes : Buffer.from(bytes);
    return this.calls.call((id) => {
      if (this.calls.size === 1) worker.ref();
      worker.postMessage({ id, bytes: payload, ...limits }, [payload.buffer as ArrayBuffer]);
    }).reply;
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(source, { eval: true });
    worker.unref();
    worker.on('message', (message: ParseOutcome & { id: number }) => {
      this.calls.deliver(message.id, message);
      if (this.calls.size === 0) worker.unref();
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

  dispose(): void {
    this.disposed = true;
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
