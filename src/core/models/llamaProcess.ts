/**
 * One loaded GGUF model in its own child process (llamaHost). Stopping it is the unload: the OS
 * takes all of the model's memory back. If the child dies, pending calls fail and `onDidExit`
 * fires, so the service can mark the model unloaded; the host process keeps running.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Emitter } from '../events.ts';
import { UnavailableError, UnsupportedError } from '../errors.ts';
import type { HostReply, HostRequest } from './llamaProtocol.ts';

export interface LlamaLoadOptions {
  readonly modelPath: string;
  readonly role: 'text' | 'embedding';
  readonly contextSize: number;
  readonly threads: number;
  /** How long starting the child and loading may take. */
  readonly timeoutMs: number;
}

export interface LlamaGenerateOptions {
  readonly maxTokens: number;
  readonly timeoutMs: number;
  readonly jsonSchema?: Readonly<Record<string, unknown>>;
  readonly signal?: AbortSignal;
}

type Pending = { resolve(value: unknown): void; reject(error: Error): void };

/** Where the child script is: beside the bundle in dist/, or the TypeScript source in tests. */
function hostScript(): { script: string; execArgv: string[] } {
  if (typeof __filename === 'string') return { script: join(dirname(__filename), 'llamaHost.cjs'), execArgv: [] };
  return {
    script: fileURLToPath(new URL('./llamaHost.ts', import.meta.url)),
    execArgv: ['--experimental-strip-types', '--disable-warning=ExperimentalWarning'],
  };
}

export class LlamaProcess {
  private readonly child: ChildProcess;
  private readonly pending = new Map<number, Pending>();
  private readonly exited = new Emitter<void>();
  /** Fires once when the child process ends, whatever the reason. */
  readonly onDidExit = this.exited.event;
  private nextId = 1;
  private stderr = '';
  private alive = true;
  private readonly exit: Promise<void>;

  private constructor(child: ChildProcess, ready: Pending) {
    this.child = child;
    this.pending.set(0, ready);
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => (this.stderr = (this.stderr + chunk).slice(-2000)));
    child.on('message', (message: HostReply) => this.settle(message));
    this.exit = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        this.alive = false;
        const why = signal ? `was killed by ${signal}` : `exited with code ${code}`;
        const detail = this.stderr.trim() ? `: ${this.stderr.trim().split('\n').slice(-3).join(' ')}` : '';
        for (const call of this.pending.values()) call.reject(new UnavailableError(`The model runtime ${why}${detail}`));
        this.pending.clear();
        this.exited.fire();
        this.exited.dispose();
        resolve();
      });
    });
    child.on('error', () => {
      // 'exit' follows (or never started, in which case fork already threw); nothing to add here.
    });
  }

  /** Starts a child and loads the model in it; the child is gone again if loading fails. */
  static async start(options: LlamaLoadOptions): Promise<LlamaProcess> {
    const { script, execArgv } = hostScript();
    let ready!: Pending;
    const started = new Promise<unknown>((resolve, reject) => (ready = { resolve, reject }));
    const child = fork(script, [], {
      execArgv,
      execPath: process.execPath,
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      serialization: 'json',
    });
    const runtime = new LlamaProcess(child, ready);
    try {
      await withTimeout(started, options.timeoutMs, 'starting the model runtime');
      const { timeoutMs: _, ...load } = options;
      await withTimeout(runtime.call({ op: 'load', ...load }), options.timeoutMs, 'loading the model');
    } catch (error) {
      await runtime.stop();
      if (error instanceof UnavailableError) throw error;
      throw new UnsupportedError(`Cannot load ${options.modelPath}: ${(error as Error).message}`);
    }
    return runtime;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get running(): boolean {
    return this.alive;
  }

  async generate(prompt: string, options: LlamaGenerateOptions): Promise<string> {
    const id = this.nextId;
    const result = this.call({ op: 'generate', prompt, maxTokens: options.maxTokens, ...(options.jsonSchema ? { jsonSchema: options.jsonSchema } : {}) });
    const abort = () => {
      if (this.alive) this.child.send({ id: this.nextId++, op: 'abort', target: id } satisfies HostRequest);
    };
    options.signal?.addEventListener('abort', abort, { once: true });
    try {
      return String(await withTimeout(result, options.timeoutMs, 'generating', options.signal, abort));
    } finally {
      options.signal?.removeEventListener('abort', abort);
    }
  }

  async embed(text: string): Promise<number[]> {
    return (await this.call({ op: 'embed', text })) as number[];
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

  private call(request: DistributiveOmit<HostRequest, 'id'>): Promise<unknown> {
    if (!this.alive) return Promise.reject(new UnavailableError('The model runtime is not running.'));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.child.send({ ...request, id } as HostRequest);
    });
  }

  private settle(message: HostReply): void {
    const call = this.pending.get(message.id);
    if (!call) return;
    this.pending.delete(message.id);
    if (message.ok) call.resolve(message.result);
    else call.reject(new Error(message.error));
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

function withTimeout<T>(promise: Promise<T>, ms: number, what: string, signal?: AbortSignal, onTimeout?: () => void): Promise<T> {
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
