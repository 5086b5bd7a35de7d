/**
 * A child process that holds one loaded model (llamaHost for GGUF models, encoderHost for the
 * built-in sentence encoder), so a native crash or an out-of-memory kill in a model runtime cannot
 * take the extension host down, its CPU work never holds the host's event loop, and unloading is
 * ending the process: the OS takes all of the model's memory back. Requests and replies are JSON
 * over the IPC channel (src/core/rpc: each request with an id; the child announces itself with
 * id 0). If the child dies, pending calls fail and `onDidExit` fires; the host process keeps running.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Emitter } from '../events.ts';
import { lowerPriority } from '../childPriority.ts';
import { UnavailableError, UnsupportedError } from '../errors.ts';
import { Calls } from '../rpc/calls.ts';
import { READY_ID, resultOf, type DistributiveOmit, type RpcReply, type RpcRequest } from '../rpc/replies.ts';

/** Where a child script is: beside the bundle in dist/ (`<name>.cjs`), or the TypeScript source in tests. */
function hostScript(name: string): { script: string; execArgv: string[] } {
  if (typeof __filename === 'string') return { script: join(dirname(__filename), `${name}.cjs`), execArgv: [] };
  return {
    script: fileURLToPath(new URL(`./${name}.ts`, import.meta.url)),
    execArgv: ['--experimental-strip-types', '--disable-warning=ExperimentalWarning'],
  };
}

/** What one kind of model process (EncoderProcess, LlamaProcess) is built on: its child, its calls, its exit. */
export class ModelProcess<Request extends RpcRequest> {
  private readonly child: ChildProcess;
  private readonly calls = new Calls<RpcReply>(READY_ID + 1);
  private readonly started: Promise<RpcReply>;
  private readonly exited = new Emitter<void>();
  /** Fires once when the child process ends, whatever the reason. */
  readonly onDidExit = this.exited.event;
  private stderr = '';
  private alive = true;
  private readonly exit: Promise<void>;

  /**
   * Starts the child script `name` (load it with `load`). `advanced` (structured clone) carries
   * typed arrays as bytes: the encoder's vectors, which as JSON cost the host a string of 512
   * numbers and its parse a vector (docs/performance.md, stop 42).
   */
  protected constructor(name: string, serialization: 'json' | 'advanced' = 'json') {
    const { script, execArgv } = hostScript(name);
    const child = fork(script, [], {
      execArgv,
      execPath: process.execPath,
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      serialization,
    });
    lowerPriority(child);
    this.child = child;
    this.started = this.calls.replyAt(READY_ID);
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => (this.stderr = (this.stderr + chunk).slice(-2000)));
    child.on('message', (message: RpcReply) => this.calls.deliver(message.id, message));
    this.exit = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        this.alive = false;
        const why = signal ? `was killed by ${signal}` : `exited with code ${code}`;
        const detail = this.stderr.trim() ? `: ${this.stderr.trim().split('\n').slice(-3).join(' ')}` : '';
        this.calls.failAll(new UnavailableError(`The model runtime ${why}${detail}`));
        this.exited.fire();
        this.exited.dispose();
        resolve();
      });
    });
    child.on('error', () => {
      // 'exit' follows (or never started, in which case fork already threw); nothing to add here.
    });
  }

  /**
   * Waits for the child to start and sends it `load` (the first request); the child is gone again
   * if starting or loading fails or takes longer than `timeoutMs`.
   */
  protected async load(load: DistributiveOmit<Request, 'id'>, options: { readonly timeoutMs: number; readonly what: string }): Promise<void> {
    try {
      await withTimeout(this.started.then(resultOf), options.timeoutMs, 'starting the model runtime');
      await withTimeout(this.call(load), options.timeoutMs, 'loading the model');
    } catch (error) {
      await this.stop();
      if (error instanceof UnavailableError) throw error;
      throw new UnsupportedError(`Cannot load ${options.what}: ${(error as Error).message}`);
    }
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get running(): boolean {
    return this.alive;
  }

  /** Sends a request and resolves with the child's result. */
  protected call(request: DistributiveOmit<Request, 'id'>): Promise<unknown> {
    return this.callWithId(request).result;
  }

  /** `call`, also telling the request's id (so another request can refer to it, e.g. to abort it). */
  protected callWithId(request: DistributiveOmit<Request, 'id'>): { readonly id: number; readonly result: Promise<unknown> } {
    if (!this.alive) return { id: this.calls.newId(), result: Promise.reject(new UnavailableError('The model runtime is not running.')) };
    const { id, reply } = this.calls.call((id) => this.child.send({ ...request, id }));
    return { id, result: reply.then(resultOf) };
  }

  /** Sends a request whose reply nobody waits for. */
  protected notify(request: DistributiveOmit<Request, 'id'>): void {
    if (this.alive) this.child.send({ ...request, id: this.calls.newId() });
  }

  /** Ends the child (politely, then by force) and waits until it is gone. */
  async stop(): Promise<void> {
    if (this.alive) {
      this.child.kill('SIGTERM');
      const force = setTimeout(() => this.child.kill('SIGKILL'), 2000);
      await this.exit;
      clearTimeout(force);
    }
  }
}

export function withTimeout<T>(promise: Promise<T>, ms: number, what: string, signal?: AbortSignal, onTimeout?: () => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      onTimeout?.();
      reject(new UnavailableError(`Timed out after ${ms} ms ${what}`));
    }, ms);
    const aborted = () => reject(signal?.reason instanceof Error ? signal.reason : new UnavailableError(`Aborted while ${what}`));
    if (signal?.aborted) aborted();
    signal?.addEventListener('abort', aborted, { once: true });
    promise.then(resolve, reject).finally(() => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', aborted);
    });
  });
}
