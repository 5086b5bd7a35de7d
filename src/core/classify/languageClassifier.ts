/**
 * Detects the language of a code snippet: the caller's hints and what the text states (a shebang,
 * a modeline) first, then the guesslang model of `@vscode/vscode-languagedetection`, in a worker
 * thread (loadable and unloadable, so the Models area can list it), combined with the token model
 * (decision.ts); on the caller's thread the token model decides alone when the worker is unloaded,
 * slow or gone.
 *
 * The worker is given one snippet at a time from two queues, interactive first: a create or an
 * agent's save waits for at most the snippet the worker is on, not for an import's batch (they
 * waited 3-10 s behind one). The time limit runs from when the worker is given the snippet, or
 * for an interactive one from when it was asked, so a long bulk queue never times out by waiting.
 */
import { Worker } from 'node:worker_threads';
import type { Disposable } from '../events.ts';
import { classifierFiles, type ClassifierFiles } from './classifierFiles.ts';
import { chooseLanguage, isBlank, modelMaxLength, standsWithoutModel, sureWithoutModel, tokenModelReady, type LanguageGuess } from './decision.ts';
import { languageFromHints, languageStatedInText, type LanguageHints } from './hints.ts';
import type { WorkerReply, WorkerRequest, WorkerSetup } from './workerProtocol.ts';

export type { LanguageGuess } from './decision.ts';
export type { LanguageHints } from './hints.ts';

export interface LanguageClassifierOptions {
  /** Longest wait for the model's answer to one snippet; the fallback decides after it. */
  readonly timeoutMs?: number;
  /** Longest wait for the worker to start and load the model. */
  readonly loadTimeoutMs?: number;
  /** Where the worker and model are; tests substitute a worker that misbehaves. */
  readonly files?: ClassifierFiles;
  /**
   * The token model's confidence at or above which guesslang is not asked (decision.ts's
   * `sureWithoutModel` unless given; Infinity always asks it).
   */
  readonly sureWithoutModel?: number;
}

/** Crashes or failed starts after which lazy loading stops until an explicit load(). */
const maxFailures = 3;

type Settle = (guess: LanguageGuess | undefined) => void;

/** Interactive: someone waits for this one (a create, a save); bulk: an import's snippets. */
export type ClassifyPriority = 'interactive' | 'bulk';

export interface ClassifyOptions {
  /** Interactive unless said otherwise. */
  readonly priority?: ClassifyPriority;
  /** What the caller knows about the text; a hint that names a language decides without the model. */
  readonly hints?: LanguageHints;
}

/** A snippet waiting for the worker. */
interface Ask {
  readonly text: string;
  readonly settle: Settle;
  /** Started when asked (interactive) or when given to the worker (bulk). */
  timer?: NodeJS.Timeout;
}

export class LanguageClassifier implements Disposable {
  private readonly timeoutMs: number;
  private readonly loadTimeoutMs: number;
  private readonly files: ClassifierFiles | undefined;
  private readonly sureWithoutModel: number;
  private worker: Worker | undefined;
  private ready = false;
  private starting: Promise<void> | undefined;
  private failStart: ((error: Error) => void) | undefined;
  private readonly queues: Record<ClassifyPriority, Ask[]> = { interactive: [], bulk: [] };
  /** The snippet the worker was given and has not answered in time yet. */
  private current: { readonly id: number; readonly ask: Ask } | undefined;
  private nextId = 0;
  /** Set by unload(): the model stays out until load() is called again. */
  private unloaded = false;
  private failures = 0;

  constructor(options: LanguageClassifierOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? 3_000;
    this.loadTimeoutMs = options.loadTimeoutMs ?? 30_000;
    this.files = options.files;
    this.sureWithoutModel = options.sureWithoutModel ?? sureWithoutModel;
  }

  /** Whether the worker with the model is running. */
  get loaded(): boolean {
    return this.ready;
  }

  /** The worker's thread id while loaded, so callers can tell one start from another. */
  get threadId(): number | undefined {
    return this.ready ? this.worker?.threadId : undefined;
  }

  /** Starts the worker (idempotent; concurrent calls share one start). Rejects if the model cannot load. */
  async load(): Promise<void> {
    this.unloaded = false;
    this.failures = 0;
    await this.start();
  }

  /** Stops the worker; until the next load only the fallback classifies. */
  async unload(): Promise<void> {
    this.unloaded = true;
    const worker = this.worker;
    if (worker === undefined) return;
    this.detach(worker, new Error('The language model was unloaded'));
    await worker.terminate();
  }

  /** The caller's hints first, then what the text states (a shebang, a modeline), then the model and the fallback. */
  async classify(text: string, options: ClassifyOptions = {}): Promise<LanguageGuess> {
    const stated = languageFromHints(options.hints, text) ?? (isBlank(text) ? undefined : languageStatedInText(text));
    if (stated !== undefined) return { specific: stated, confidence: 1, source: 'hint' };
    // guesslang costs 20-70 ms a snippet, the token model well under one: it is asked only where
    // it can change the answer and the token model is unsure (docs/languages.md).
    const alone = chooseLanguage(text, [], await tokenModelReady());
    if (standsWithoutModel(alone, text, this.sureWithoutModel)) return alone;
    return (await this.askWorker(text.slice(0, modelMaxLength), options.priority ?? 'interactive')) ?? alone;
  }

  dispose(): void {
    void this.unload();
  }

  private start(): Promise<void> {
    if (this.ready) return Promise.resolve();
    this.starting ??= this.spawn().finally(() => {
      this.starting = undefined;
      this.failStart = undefined;
    });
    return this.starting;
  }

  private spawn(): Promise<void> {
    const files = this.files ?? classifierFiles();
    const setup: WorkerSetup = { modelDir: files.modelDir };
    const worker = new Worker(files.worker, { workerData: setup });
    // A classifier nobody unloaded must not keep a CLI process alive.
    worker.unref();
    this.worker = worker;
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.detach(worker, new Error(`The language model did not load within ${this.loadTimeoutMs} ms`));
        void worker.terminate();
      }, this.loadTimeoutMs);
      this.failStart = (error) => {
        clearTimeout(timer);
        reject(error);
      };
      worker.on('message', (reply: WorkerReply) => {
        if ('ready' in reply) {
          clearTimeout(timer);
          this.ready = true;
          resolve();
        } else if ('failed' in reply) {
          this.detach(worker, new Error(`The language model failed to load: ${reply.failed}`));
        } else if (this.current?.id === reply.id) {
          // A late answer (the snippet timed out) is dropped: its caller has the fallback's.
          this.current.ask.settle('guess' in reply ? reply.guess : undefined);
        }
      });
      worker.on('error', (error) => this.detach(worker, error));
      worker.on('exit', (code) => this.detach(worker, new Error(`The language model worker exited (code ${code})`)));
    });
  }

  /** Forgets `worker` once, whether it crashed, failed to load or was unloaded; waiting calls fall back. */
  private detach(worker: Worker, error: Error): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    this.ready = false;
    if (!this.unloaded) this.failures++;
    this.failStart?.(error);
    const waiting = [...(this.current ? [this.current.ask] : []), ...this.queues.interactive.splice(0), ...this.queues.bulk.splice(0)];
    for (const ask of waiting) ask.settle(undefined);
  }

  /** The worker's answer, or undefined when it is unloaded, failing or too slow. */
  private async askWorker(text: string, priority: ClassifyPriority): Promise<LanguageGuess | undefined> {
    if (!this.ready) {
      if (this.unloaded || this.failures >= maxFailures) return undefined;
      try {
        await this.start();
      } catch {
        return undefined;
      }
    }
    if (this.worker === undefined) return undefined;
    const queue = this.queues[priority];
    return new Promise((resolve) => {
      const ask: Ask = {
        text,
        settle: (guess) => {
          clearTimeout(ask.timer);
          const queued = queue.indexOf(ask);
          if (queued !== -1) queue.splice(queued, 1);
          if (this.current?.ask === ask) this.current = undefined;
          resolve(guess);
          this.giveNext();
        },
      };
      if (priority === 'interactive') ask.timer = setTimeout(() => ask.settle(undefined), this.timeoutMs);
      queue.push(ask);
      this.giveNext();
    });
  }

  /** Gives the worker the next snippet, interactive first, once it has answered (or timed out on) the one before. */
  private giveNext(): void {
    const worker = this.worker;
    if (this.current !== undefined || worker === undefined || !this.ready) return;
    const ask = this.queues.interactive.shift() ?? this.queues.bulk.shift();
    if (ask === undefined) return;
    const id = ++this.nextId;
    this.current = { id, ask };
    ask.timer ??= setTimeout(() => ask.settle(undefined), this.timeoutMs);
    const request: WorkerRequest = { id, text: ask.text };
    worker.postMessage(request);
  }
}
