/**
 * The child process that hosts node-llama-cpp for one loaded model, so a native crash or an
 * out-of-memory kill in llama.cpp cannot take the extension host down, and unloading is simply
 * ending this process. Speaks JSON over the IPC channel (src/core/rpc/serve.ts); exits when the
 * parent goes away. Prebuilt CPU binaries only: it never builds or downloads llama.cpp.
 */
import type { Llama, LlamaContext, LlamaEmbeddingContext, LlamaModel } from 'node-llama-cpp';
import type { HostRequest } from './llamaProtocol.ts';
import { serveParent } from '../rpc/serve.ts';

type Loaded =
  | { readonly role: 'text'; readonly model: LlamaModel; readonly context: LlamaContext }
  | { readonly role: 'embedding'; readonly model: LlamaModel; readonly context: LlamaEmbeddingContext; readonly contextSize: number };

let llama: Llama | undefined;
let loaded: Loaded | undefined;
const running = new Map<number, AbortController>();
// One generation at a time: a context has one sequence.
let queue: Promise<unknown> = Promise.resolve();

async function runtime() {
  const mod = await import('node-llama-cpp');
  llama ??= await mod.getLlama({ gpu: false, build: 'never', logLevel: mod.LlamaLogLevel.error });
  return { mod, llama };
}

async function handle(request: HostRequest): Promise<unknown> {
  switch (request.op) {
    case 'load': {
      const { llama } = await runtime();
      const model = await llama.loadModel({ modelPath: request.modelPath });
      const contextSize = Math.min(request.contextSize, model.trainContextSize);
      loaded =
        request.role === 'embedding'
          ? { role: 'embedding', model, contextSize, context: await model.createEmbeddingContext({ contextSize, threads: request.threads }) }
          : { role: 'text', model, context: await model.createContext({ contextSize, threads: request.threads }) };
      return { rss: process.memoryUsage().rss };
    }
    case 'generate': {
      const current = loaded;
      if (current?.role !== 'text') throw new Error('No text model is loaded in this process.');
      const controller = new AbortController();
      running.set(request.id, controller);
      const job = queue.then(async () => {
        controller.signal.throwIfAborted();
        const { mod, llama } = await runtime();
        const sequence = current.context.getSequence();
        const session = new mod.LlamaChatSession({ contextSequence: sequence });
        try {
          const grammar = request.jsonSchema ? await llama.createGrammarForJsonSchema(request.jsonSchema as never) : undefined;
          const text = await session.prompt(request.prompt, {
            maxTokens: request.maxTokens,
            temperature: 0,
            signal: controller.signal,
            ...(grammar ? { grammar } : {}),
          });
          // A reply cut by maxTokens would not parse: fail rather than hand back broken JSON.
          if (grammar) grammar.parse(text);
          return text;
        } finally {
          session.dispose({ disposeSequence: true });
          running.delete(request.id);
        }
      });
      queue = job.catch(() => undefined);
      return job;
    }
    case 'embed': {
      const current = loaded;
      if (current?.role !== 'embedding') throw new Error('No embedding model is loaded in this process.');
      // Longer input fails in llama.cpp; a snippet's head (its name and first lines) stands for it.
      // Room is left for the begin and end tokens the context adds.
      const tokens = current.model.tokenize(request.text).slice(0, Math.max(1, current.contextSize - 4));
      const embedding = await current.context.getEmbeddingFor(tokens);
      return [...embedding.vector];
    }
    case 'abort':
      running.get(request.target)?.abort();
      return undefined;
  }
}

serveParent<HostRequest>(handle);
