/**
 * Computes imported assets' derived rows (preparedAsset.ts) on a worker thread, so an import can
 * prepare batch N+1 while its writer commits batch N (two cores: the writer's thread is the
 * bottleneck). Where the worker cannot start, or fails, the same computation runs in-thread: an
 * import never depends on the worker. One per import, disposed with it.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Disposable } from '../events.ts';
import { Calls } from '../rpc/calls.ts';
import { prepareAsset, type PreparedAsset } from './preparedAsset.ts';
import { bundledPrepareWorker, type PrepareReply, type PrepareRequest } from './prepareProtocol.ts';

export class BatchPreparer implements Disposable {
  private worker: Worker | undefined;
  private fellBack = 0;
  private readonly calls = new Calls<PrepareReply>();

  /** `worker`: the script to run (default: the bundle's or the sources'); `false` computes in-thread. */
  constructor(worker: URL | false | undefined = prepareWorkerFile()) {
    if (worker === false) return;
    try {
      const started = new Worker(worker);
      // An import's helper must never keep a CLI process alive.
      started.unref();
      started.on('message', (reply: PrepareReply) => this.calls.deliver(reply.id, reply));
      started.on('error', () => this.detach(started));
      started.on('exit', () => this.detach(started));
      this.worker = started;
    } catch {
      this.worker = undefined;
    }
  }

  /** Whether batches go to the worker thread (false once it failed, or when it never started). */
  get threaded(): boolean {
    return this.worker !== undefined;
  }

  /** Batches computed on this thread because the worker could not answer them (for tests). */
  get fallbacks(): number {
    return this.fellBack;
  }

  /** The derived rows of `texts`, in order: from the worker, or computed here if it cannot answer. */
  async prepare(texts: readonly string[]): Promise<PreparedAsset[]> {
    const worker = this.worker;
    if (worker === undefined) return texts.map(prepareAsset);
    const reply = await this.calls
      .call((id) => {
        const request: PrepareRequest = { id, texts };
        worker.postMessage(request);
      })
      .reply.catch(() => undefined);
    if (reply !== undefined && 'prepared' in reply) return reply.prepared;
    this.fellBack++;
    return texts.map(prepareAsset);
  }

  /** Forgets a worker that crashed or exited; batches it held are computed in-thread. */
  private detach(worker: Worker): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    this.calls.failAll(new Error('The import\'s worker thread stopped.'));
  }

  dispose(): void {
    const worker = this.worker;
    if (worker === undefined) return;
    this.detach(worker);
    void worker.terminate();
  }
}

/** The worker script where Satchel runs from: dist/ next to the bundle, or the TypeScript sources (tests). */
function prepareWorkerFile(): URL | false {
  // A CommonJS bundle has __dirname and no import.meta; the ES module sources have the reverse.
  if (typeof __dirname === 'string') {
    const bundled = path.join(__dirname, bundledPrepareWorker);
    return existsSync(bundled) ? pathToFileURL(bundled) : false;
  }
  return new URL('./prepareWorker.ts', import.meta.url);
}
