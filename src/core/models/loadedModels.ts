/**
 * The language models in memory: at most one per role (text, embedding), each in its own child
 * process (llama.cpp for GGUF models, TensorFlow.js for the built-in sentence encoder). Loads and
 * unloads of a role run one at a time; a text model idle for `idleUnloadMs` is unloaded (an
 * embedding model stays until unloaded); a crashed process simply leaves its model unloaded.
 */
import { stat } from 'node:fs/promises';
import { freemem } from 'node:os';
import { InsufficientResourcesError, UnavailableError } from '../errors.ts';
import { byteDescriptor } from './catalog.ts';
import { LlamaProcess } from './llamaProcess.ts';
import { EncoderProcess } from './encoderProcess.ts';
import type { EncoderFiles } from './encoderFiles.ts';
import type { TextGenerator } from './textGenerator.ts';
import type { Embedder } from './embedder.ts';
import { ENCODER_CENTRE } from './encoderCentre.ts';

export type Role = 'text' | 'embedding';
const ROLES: readonly Role[] = ['text', 'embedding'];

export interface RuntimeSettings {
  readonly idleUnloadMs: number;
  readonly threads: number;
  readonly loadTimeoutMs: number;
}

export type LoadRequest =
  | {
      readonly runtime: 'llama';
      readonly id: string;
      readonly name: string;
      readonly role: Role;
      readonly modelPath: string;
      readonly contextSize: number;
      /** Memory the model declares it needs, if any; the file size gives a floor either way. */
      readonly declaredRam?: number;
    }
  | {
      /** The built-in sentence encoder: an embedding model. */
      readonly runtime: 'encoder';
      readonly id: string;
      readonly name: string;
      readonly role: 'embedding';
      readonly files: EncoderFiles;
      /** Pieces of a text it reads. */
      readonly maxTokens: number;
      readonly declaredRam: number;
    };

interface Loaded {
  readonly id: string;
  readonly process: LlamaProcess | EncoderProcess;
  busy: number;
  idleTimer?: NodeJS.Timeout;
}

export class LoadedModels {
  private readonly settings: RuntimeSettings;
  /** Told the id of a model whose loaded state changed, whatever the cause. */
  private readonly changed: (id: string) => void;
  private readonly runtimes = new Map<Role, Loaded>();
  private readonly queues = new Map<Role, Promise<unknown>>();
  private closed = false;

  constructor(settings: RuntimeSettings, changed: (id: string) => void) {
    this.settings = settings;
    this.changed = changed;
  }

  isLoaded(id: string): boolean {
    return this.roleOf(id) !== undefined;
  }

  /** The OS process id of a loaded model's runtime. */
  pid(id: string): number | undefined {
    const role = this.roleOf(id);
    return role ? this.runtimes.get(role)?.process.pid : undefined;
  }

  /** Loads a model, replacing the loaded model of the same role (already loaded: nothing to do). */
  load(request: LoadRequest): Promise<void> {
    return this.exclusive(request.role, async () => {
      if (this.runtimes.get(request.role)?.id === request.id) return;
      await this.stop(request.role);
      await ensureMemory(request);
      const process =
        request.runtime === 'encoder'
          ? await EncoderProcess.start({ files: request.files, maxTokens: request.maxTokens, timeoutMs: this.settings.loadTimeoutMs })
          : await LlamaProcess.start({
              modelPath: request.modelPath,
              role: request.role,
              contextSize: request.contextSize,
              threads: this.settings.threads,
              timeoutMs: this.settings.loadTimeoutMs,
            });
      if (this.closed) {
        await process.stop();
        throw new UnavailableError('Satchel is shutting down.');
      }
      const loaded: Loaded = { id: request.id, process, busy: 0 };
      this.runtimes.set(request.role, loaded);
      process.onDidExit(() => {
        // A crash or a kill: the model is simply no longer loaded.
        if (this.runtimes.get(request.role) !== loaded) return;
        clearTimeout(loaded.idleTimer);
        this.runtimes.delete(request.role);
        this.changed(request.id);
      });
      this.touch(request.role);
      this.changed(request.id);
    });
  }

  async unload(id: string): Promise<void> {
    const role = this.roleOf(id);
    if (role) await this.exclusive(role, () => (this.runtimes.get(role)?.id === id ? this.stop(role) : undefined));
  }

  async unloadAll(): Promise<void> {
    await Promise.all(ROLES.map((role) => this.exclusive(role, () => this.stop(role))));
  }

  /** A generator over the loaded text model, or undefined when none is loaded. */
  textGenerator(): TextGenerator | undefined {
    const loaded = this.runtimes.get('text');
    const process = loaded?.process;
    if (!loaded || !(process instanceof LlamaProcess) || !process.running) return undefined;
    return {
      generate: async (prompt, options) => {
        loaded.busy++;
        try {
          return await process.generate(prompt, options);
        } finally {
          loaded.busy--;
          if (this.runtimes.get('text') === loaded) this.touch('text');
        }
      },
    };
  }

  /** An embedder over the loaded embedding model, or undefined when none is loaded. */
  embedder(): Embedder | undefined {
    const loaded = this.runtimes.get('embedding');
    if (!loaded?.process.running) return undefined;
    const busy = async <T>(work: () => Promise<T>): Promise<T> => {
      loaded.busy++;
      try {
        return await work();
      } finally {
        loaded.busy--;
        if (this.runtimes.get('embedding') === loaded) this.touch('embedding');
      }
    };
    const process = loaded.process;
    if (process instanceof EncoderProcess) {
      return {
        modelId: loaded.id,
        reads: 'words',
        centre: ENCODER_CENTRE,
        embed: (text) => busy(async () => (await process.embed([text]))[0]!),
        embedMany: (texts) => busy(() => process.embed(texts)),
      };
    }
    return { modelId: loaded.id, reads: 'code', embed: (text) => busy(async () => Float32Array.from(await process.embed(text))) };
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.unloadAll();
  }

  private roleOf(id: string): Role | undefined {
    for (const [role, loaded] of this.runtimes) if (loaded.id === id) return role;
    return undefined;
  }

  /** Runs loads and unloads of one role one at a time, so two text models are never loaded together. */
  private exclusive<T>(role: Role, task: () => Promise<T> | T): Promise<T> {
    const next = (this.queues.get(role) ?? Promise.resolve()).then(task);
    this.queues.set(role, next.catch(() => undefined));
    return next;
  }

  private async stop(role: Role): Promise<void> {
    const loaded = this.runtimes.get(role);
    if (!loaded) return;
    this.runtimes.delete(role);
    clearTimeout(loaded.idleTimer);
    await loaded.process.stop();
    this.changed(loaded.id);
  }

  /** (Re)starts the idle countdown of a loaded model; a model busy generating is never unloaded. */
  private touch(role: Role): void {
    const loaded = this.runtimes.get(role);
    if (!loaded) return;
    clearTimeout(loaded.idleTimer);
    // An embedding model serves every search (semantic recall) and is small beside a text model:
    // unloading it when nobody searched for a while would quietly make search lexical again.
    if (this.settings.idleUnloadMs <= 0 || role === 'embedding') return;
    loaded.idleTimer = setTimeout(() => {
      if (loaded.busy > 0) return this.touch(role);
      void this.exclusive(role, () => (this.runtimes.get(role) === loaded ? this.stop(role) : undefined));
    }, this.settings.idleUnloadMs);
    loaded.idleTimer.unref();
  }
}

async function ensureMemory(request: LoadRequest): Promise<void> {
  // The CPU backend holds about the file size again after repacking, plus the context (models.md §2.3).
  const fileBytes = request.runtime === 'llama' ? (await stat(request.modelPath)).size : 0;
  const needed = Math.max(request.declaredRam ?? 0, fileBytes * 2 + 64 * 1024 * 1024);
  const free = freemem();
  if (needed > free) {
    throw new InsufficientResourcesError(
      `Not enough free memory to load ${request.name}: it needs about ${byteDescriptor(needed).readable}, ${byteDescriptor(free).readable} is free.`,
    );
  }
}
