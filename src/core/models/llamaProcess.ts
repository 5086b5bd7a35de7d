/**
 * One loaded GGUF model in its own child process (llamaHost, over modelProcess.ts). Stopping it
 * is the unload. If the child dies, pending calls fail and `onDidExit` fires, so the service can
 * mark the model unloaded; the host process keeps running.
 */
import type { HostRequest } from './llamaProtocol.ts';
import { ModelProcess, withTimeout } from './modelProcess.ts';

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

export class LlamaProcess {
  private readonly runtime: ModelProcess<HostRequest>;
  /** Fires once when the child process ends, whatever the reason. */
  readonly onDidExit;

  private constructor(runtime: ModelProcess<HostRequest>) {
    this.runtime = runtime;
    this.onDidExit = runtime.onDidExit;
  }

  /** Starts a child and loads the model in it; the child is gone again if loading fails. */
  static async start(options: LlamaLoadOptions): Promise<LlamaProcess> {
    const { timeoutMs, ...load } = options;
    return new LlamaProcess(await ModelProcess.start<HostRequest>('llamaHost', { op: 'load', ...load }, { timeoutMs, what: options.modelPath }));
  }

  get pid(): number | undefined {
    return this.runtime.pid;
  }

  get running(): boolean {
    return this.runtime.running;
  }

  async generate(prompt: string, options: LlamaGenerateOptions): Promise<string> {
    const { id, result } = this.runtime.callWithId({ op: 'generate', prompt, maxTokens: options.maxTokens, ...(options.jsonSchema ? { jsonSchema: options.jsonSchema } : {}) });
    const abort = () => this.runtime.notify({ op: 'abort', target: id });
    options.signal?.addEventListener('abort', abort, { once: true });
    try {
      return String(await withTimeout(result, options.timeoutMs, 'generating', options.signal, abort));
    } finally {
      options.signal?.removeEventListener('abort', abort);
    }
  }

  async embed(text: string): Promise<number[]> {
    return (await this.runtime.call({ op: 'embed', text })) as number[];
  }

  /** Ends the child (politely, then by force) and waits until it is gone. */
  stop(): Promise<void> {
    return this.runtime.stop();
  }
}
