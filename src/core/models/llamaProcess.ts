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

export class LlamaProcess extends ModelProcess<HostRequest> {
  /** Starts a child and loads the model in it; the child is gone again if loading fails. */
  static async start(options: LlamaLoadOptions): Promise<LlamaProcess> {
    const { timeoutMs, ...load } = options;
    const llama = new LlamaProcess('llamaHost');
    await llama.load({ op: 'load', ...load }, { timeoutMs, what: options.modelPath });
    return llama;
  }

  async generate(prompt: string, options: LlamaGenerateOptions): Promise<string> {
    const { id, result } = this.callWithId({ op: 'generate', prompt, maxTokens: options.maxTokens, ...(options.jsonSchema ? { jsonSchema: options.jsonSchema } : {}) });
    const abort = () => this.notify({ op: 'abort', target: id });
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
}
