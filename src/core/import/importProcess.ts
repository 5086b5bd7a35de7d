/**
 * Imports, run in a child process with its own connection to the store (importHost.ts). Why not on
 * this thread: in VS Code it is the extension host's, and a 100k import held it for up to 2 s at a
 * time (a batch's commit, an FTS5 merge); why a process rather than a worker thread: the memory an
 * import used (SQLite's page cache, the batches, the allocator's arenas) is given back when the
 * process ends, where a thread's stayed with the host (+80 MB after a 10k import).
 *
 * This side hands the child the files one at a time, classifies for it, relays progress, and after
 * each batch brings the store's in-memory parts in step and announces the batch's changes. Imports
 * run one after another; while any are queued they share one child, the search index's merging
 * waits for the last, and that child merges it before it ends (ImportStore.finish; the store's
 * process merges what it leaves, segmentMerger.ts). Where the child cannot start, the same import
 * runs here (SnippetImporter).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from '../context.ts';
import type { ChangeEvent, Disposable } from '../events.ts';
import type { ClassificationSpecific } from '../piecesTypes.ts';
import { Calls } from '../rpc/calls.ts';
import { lowerPriority } from '../childPriority.ts';
import { dataHostNodeFlags } from '../hostNodeFlags.ts';
import { isFileError } from './files.ts';
import type { ImportOptions, ImportSummary, SnippetImporter } from './importer.ts';
import type { ImportSource } from './importSource.ts';
import type { ImportSpool, Spooled } from './importSpool.ts';
import { bundledImportHost, relayedError, SOURCE_PIECE_BYTES, type FromChild, type ImportHostData, type SourceMessage, type ToChild } from './importProtocol.ts';

export interface ImportProcessDeps {
  readonly child: ImportHostData;
  /** The same import in this process: where the child cannot start, and for merging after imports. */
  readonly inProcess: SnippetImporter;
  /**
   * What the store keeps while a child may write, undone by disposing: the search index's merging
   * deferred (segmentMerger.ts), and grouped writes waiting for the child's lock off the event loop.
   */
  session(): Disposable;
  /**
   * Whether the session's child may merge the search index as it ends (ImportStore.finish): nothing
   * but the session defers the merge. Without it, the store's process merges afterwards.
   */
  mergeInChild?(): boolean;
  classify(text: string): Promise<ClassificationSpecific>;
  /** Runs before a session's first import writes anything (the copy of the store taken before imports). */
  beforeSession?(signal: AbortSignal | undefined): Promise<unknown>;
  /** Where files already in memory are written as their import is queued (QueuedImportOptions.spool). */
  readonly spool?: ImportSpool;
  /** A batch the child committed: its assets are adopted and its changes announced. */
  adopt(changes: readonly ChangeEvent[]): void;
  /** The child's script (default: the bundle's or the sources'); false imports in this process. */
  readonly script?: ChildScript | false | undefined;
  readonly logger: Logger;
}

export interface ChildScript {
  readonly path: string;
  readonly execArgv: readonly string[];
}

export interface QueuedImportOptions extends ImportOptions {
  /**
   * The sources are files already in this process's memory (a request's body): they are read at
   * once and written to the spool as the import is queued, so the body is let go before the
   * import's turn and the store's copy (importSpool.ts).
   */
  readonly spool?: boolean | undefined;
}

/** What the child says of one import (the rest, classification requests, are the child's own). */
type ImportMessage = Extract<FromChild, { readonly id: number }>;

/** How long a closing store waits for the child to finish its batch and close its connection. */
const CLOSE_WAIT_MS = 10_000;

interface Session {
  readonly child: ChildProcess | undefined;
  /** Whether the child opened the store: false when it ended before it could (the import then runs here). */
  readonly ready: Promise<boolean>;
  /** What the store keeps for the session (ImportProcessDeps.session). */
  readonly held: Disposable;
  /** Settles when the child has exited (at once without one). */
  readonly exited: Promise<void>;
  /** The imports sent to the child, by id; a child that dies fails them. */
  readonly imports: Calls<ImportMessage>;
  failure?: Error;
}

export class ImportProcess {
  private readonly deps: ImportProcessDeps;
  private script: ChildScript | false;
  private queue: Promise<unknown> = Promise.resolve();
  private queued = 0;
  private session: Session | undefined;
  private closing: Promise<void> | undefined;
  /** Settles when every child started so far has exited. */
  private ending: Promise<void> = Promise.resolve();

  constructor(deps: ImportProcessDeps) {
    this.deps = deps;
    this.script = deps.script ?? importHostScript();
  }

  /**
   * Queues an import. One cancelled before its turn settles at once and lets go of its files: the
   * files of an HTTP import are its request's body, and a queue of imports whose clients had left
   * held every body until its turn (85 queued 64 MB imports took the host to 4.2 GB).
   */
  import(sources: Iterable<ImportSource> | AsyncIterable<ImportSource>, queued: QueuedImportOptions = {}): Promise<ImportSummary> {
    const { spool, ...options } = queued;
    this.queued++;
    // Files already in memory go to the spool at once, before the import's turn: a request queued
    // behind another lets go of its body too.
    const spooling = spool === true ? this.deps.spool?.spool(sources, options.signal) : undefined;
    // Its failure is the import's, told when its turn comes (or never, if it is cancelled first).
    spooling?.catch(() => undefined);
    // What the queue holds of this import until its turn: nothing once it is cancelled. Not even
    // its signal: an abort's reason is an error whose stack keeps the caller's frames (the route's
    // request and body) alive.
    let waiting: { sources: typeof sources; options: ImportOptions } | undefined = { sources: spooling ? [] : sources, options };
    const summary = cancelledSummary(options.files);
    let dropped!: (summary: ImportSummary) => void;
    const cancelledWhileQueued = new Promise<ImportSummary>((resolve) => (dropped = resolve));
    const drop = (): void => {
      waiting = undefined;
      void spooling?.then((spooled) => this.deps.spool?.discard(spooled.files), () => undefined);
      dropped(summary);
    };
    if (options.signal?.aborted) drop();
    else options.signal?.addEventListener('abort', drop, { once: true });
    // The queue moves on when this import's turn is over, not when a cancelled one was answered.
    const turn = this.queue
      .then(() => {
        const held = waiting;
        waiting = undefined;
        if (held === undefined) return summary;
        held.options.signal?.removeEventListener('abort', drop);
        return spooling ? this.runSpooled(spooling, held.options) : this.run(held.sources, held.options);
      })
      .finally(() => {
        if (--this.queued === 0) void this.endSession();
      });
    this.queue = turn.catch(() => undefined);
    return Promise.race([turn, cancelledWhileQueued]);
  }

  /** The process imports are running in, while there is one. */
  get pid(): number | undefined {
    return this.session?.child?.pid;
  }

  /** Resolves once the imports queued so far are done and the search index is merged after them. */
  async merged(): Promise<void> {
    await this.queue;
    // The child merges before it exits; what it left starts once the session it held is released.
    await this.ending;
    await this.deps.inProcess.merged();
  }

  /** Fails what is running (its child stops at its next batch) and waits for the child to close its connection and exit. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      // An expected end, not a failure: a domain error (no stack logged), 503 for its client.
      this.session?.imports.failAll(relayedError({ message: 'Satchel is closing; the import stopped between batches (what it wrote stays).', code: 'unavailable' }));
      await this.endSession();
    })();
    return this.closing;
  }

  /** An import whose files were spooled: the files it did not read are removed after it. */
  private async runSpooled(spooling: Promise<Spooled>, options: ImportOptions): Promise<ImportSummary> {
    const spooled = await spooling;
    try {
      return await this.run(spooled.sources, options);
    } finally {
      await this.deps.spool?.discard(spooled.files);
    }
  }

  private async run(sources: Iterable<ImportSource> | AsyncIterable<ImportSource>, options: ImportOptions): Promise<ImportSummary> {
    if (this.closing) throw new Error('The store is closed.');
    if (!this.session) {
      // The last session's child may still be merging the search index: its end comes first.
      await this.ending;
      if (this.closing) throw new Error('The store is closed.');
      try {
        await this.deps.beforeSession?.(options.signal);
      } catch (error) {
        if (options.signal?.aborted) return cancelledSummary(options.files);
        throw error;
      }
    }
    const session = (this.session ??= this.startSession());
    const child = session.child;
    if (child === undefined || !(await session.ready)) return this.deps.inProcess.import(sources, options);
    if (session.failure) throw session.failure;
    const send = (message: ToChild): void => void child.send(message);
    const files = (async function* () {
      yield* sources;
    })();
    return new Promise<ImportSummary>((resolve, reject) => {
      let settled = false;
      const cancel = (): void => send({ type: 'cancel', id });
      const finish = (outcome: () => void): void => {
        if (settled) return;
        settled = true;
        session.imports.close(id);
        options.signal?.removeEventListener('abort', cancel);
        outcome();
      };
      /** A file whose bytes are crossing in pieces (SOURCE_PIECE_BYTES): the rest of them. */
      let sending: { readonly name: string; readonly bytes: Uint8Array; readonly taken?: (() => void) | undefined } | undefined;
      const sendPiece = (file: NonNullable<typeof sending>): void => {
        const more = file.bytes.length > SOURCE_PIECE_BYTES;
        send({ type: 'source', id, source: { name: file.name, jsonText: file.bytes.subarray(0, SOURCE_PIECE_BYTES), ...(more ? { more } : {}) } });
        sending = more ? { ...file, bytes: file.bytes.subarray(SOURCE_PIECE_BYTES) } : undefined;
        // Each message is a copy (serialized as it is sent): once the last is, the bytes may go.
        if (!more) file.taken?.();
      };
      // The id is read only by callbacks, which run after it is set.
      const id = session.imports.listen({
        fail: (error) => finish(() => reject(error)),
        message: (message) => {
          switch (message.type) {
            case 'next':
              if (sending !== undefined) return sendPiece(sending);
              void nextSource(files).then(
                ({ source, taken }) => {
                  if (source !== undefined && 'jsonText' in source) return sendPiece({ name: source.name, bytes: source.jsonText, taken });
                  send({ type: 'source', id, source });
                },
                (error: unknown) => {
                  // Not a file error (those fail their file alone): the import stops, and the child's
                  // wait for the file ends.
                  cancel();
                  send({ type: 'source', id, source: undefined });
                  finish(() => reject(error));
                },
              );
              return;
            case 'written':
              this.deps.adopt(message.changes);
              return;
            case 'progress':
              options.onProgress?.(message.progress);
              return;
            case 'done':
              finish(() => resolve(message.summary));
              return;
            case 'failed':
              finish(() => reject(relayedError(message.error)));
              return;
          }
        },
      });
      options.signal?.addEventListener('abort', cancel, { once: true });
      send({ type: 'import', id, options: { batchSize: options.batchSize, format: options.format, files: options.files } });
      if (options.signal?.aborted) cancel();
    });
  }

  private startSession(): Session {
    const held = this.deps.session();
    const imports = new Calls<ImportMessage>();
    let child: ChildProcess | undefined;
    if (this.script !== false) {
      try {
        child = fork(this.script.path, [JSON.stringify(this.deps.child)], {
          // The data host's own V8 flags (its smaller young generation): an import allocates as fast as a first sync.
          execArgv: [...dataHostNodeFlags(), ...this.script.execArgv],
          // In VS Code, process.execPath is the editor's Electron: this makes it run as plain Node.
          execPath: process.execPath,
          env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
          stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
          // Structured clone: a parsed file's snippets cross as they are.
          serialization: 'advanced',
        });
        lowerPriority(child, (message) => this.deps.logger.warn(message));
      } catch {
        child = undefined;
      }
    }
    if (child === undefined) return { child, ready: Promise.resolve(false), held, imports, exited: Promise.resolve() };
    const started = child;
    let becameReady!: (ready: boolean) => void;
    const ready = new Promise<boolean>((resolve) => (becameReady = resolve));
    let stderr = '';
    started.stderr?.setEncoding('utf8');
    started.stderr?.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-2000);
    });
    const session: Session = {
      child: started,
      ready,
      held,
      imports,
      exited: new Promise<void>((resolve) => started.once('exit', () => resolve())),
    };
    started.on('message', (message: FromChild) => {
      if ('id' in message) session.imports.deliver(message.id, message);
      else if (message.type === 'ready') becameReady(true);
      else if (message.type === 'classify') {
        // The child waits for every answer: a classifier that fails answers plain text.
        const answer = (language: ClassificationSpecific): void => void started.send({ type: 'classified', request: message.request, language } satisfies ToChild);
        this.deps.classify(message.text).then(answer, () => answer('txt'));
      }
    });
    started.on('error', () => {
      // 'exit' follows (a child that never started exits too).
    });
    started.on('exit', (code, signal) => {
      // A child gone by itself ends its session (releasing what it holds twice is harmless: the Disposables guard it).
      if (this.session === session) {
        this.session = undefined;
        held.dispose();
      }
      const why = signal ? `was killed by ${signal}` : `exited with code ${code}`;
      const detail = stderr.trim() ? `: ${stderr.trim().split('\n').slice(-3).join(' ')}` : '';
      void ready.then((wasReady) => {
        if (wasReady) return;
        // It could not open the store (a runtime that cannot run it as Node, a broken install):
        // imports run in this process from now on, as they do where no child can be started.
        this.script = false;
        this.deps.logger.warn(`The import process ${why} before it started${detail}; importing in this process instead.`);
      });
      becameReady(false);
      if (session.imports.size === 0) return;
      // Batches the child committed stay; the imports it held fail, and the next one starts a new child.
      session.failure = new Error(`The import process ${why}${detail}`);
      session.imports.failAll(session.failure);
    });
    return session;
  }

  /** Ends the current session; resolves when every session ended so far has (a store closing waits for them). */
  private endSession(): Promise<void> {
    const session = this.session;
    if (session !== undefined) {
      this.session = undefined;
      const ended = this.ending;
      this.ending = Promise.all([ended, this.finishSession(session)]).then(() => undefined);
    }
    return this.ending;
  }

  private async finishSession(session: Session): Promise<void> {
    const child = session.child;
    if (child && child.exitCode === null && child.signalCode === null) {
      // Imports done as planned (not the store closing), nothing else deferring the merge: the child merges the search index first.
      if (child.connected) child.send({ type: 'close', merge: this.closing === undefined && this.deps.mergeInChild?.() === true } satisfies ToChild);
      const timer = setTimeout(() => child.kill('SIGKILL'), CLOSE_WAIT_MS);
      await session.exited;
      clearTimeout(timer);
    }
    session.held.dispose();
  }
}

/** What an import cancelled before it began (queued, or while the store was copied) reports: nothing read, nothing written. */
function cancelledSummary(files: number | undefined): ImportSummary {
  return { filesDone: 0, files, found: 0, imported: 0, updated: 0, duplicates: 0, failed: 0, failures: [], formats: {}, cancelled: true, elapsedMs: 0 };
}

/**
 * The next file as it crosses to the child (and what to tell its source once it is sent); a file that
 * cannot be read goes as its error, which fails it alone.
 */
async function nextSource(files: AsyncIterator<ImportSource>): Promise<{ source: SourceMessage | undefined; taken?: (() => void) | undefined }> {
  const next = await files.next();
  if (next.done) return { source: undefined };
  const source = next.value;
  if ('parsed' in source) return { source: { name: source.name, parsed: source.parsed } };
  if ('spooled' in source) return { source: { name: source.name, spooled: source.spooled } };
  if ('jsonText' in source) return { source: { name: source.name, jsonText: source.jsonText }, taken: source.taken?.bind(source) };
  try {
    return { source: { name: source.name, text: await source.text() } };
  } catch (error) {
    if (!isFileError(error)) throw error;
    const { message, code, syscall } = error as NodeJS.ErrnoException;
    return { source: { name: source.name, error: { message, code: code ?? 'EIO', syscall: syscall ?? 'read' } } };
  }
}

/** The child's script where Satchel runs from: dist/ next to the bundle, or the TypeScript sources (tests). */
function importHostScript(): ChildScript | false {
  // A CommonJS bundle has __dirname and no import.meta; the ES module sources have the reverse.
  if (typeof __dirname === 'string') {
    const bundled = path.join(__dirname, bundledImportHost);
    return existsSync(bundled) ? { path: bundled, execArgv: [] } : false;
  }
  return {
    path: fileURLToPath(new URL('./importHost.ts', import.meta.url)),
    execArgv: ['--experimental-strip-types', '--disable-warning=ExperimentalWarning'],
  };
}
