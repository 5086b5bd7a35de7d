/**
 * The child process imports run in (importProcess.ts): reads, de-duplicates and writes the snippets
 * through its own connection to the store (importStore.ts), so the process that answers requests
 * (in VS Code, the extension host) only relays files, progress and change events, and gets back
 * all the memory an import used when this process ends. Its own esbuild entry (dist/importHost.cjs).
 * It ends when the store's process says `close`, or at once when that process is gone.
 */
import type { ChangeEvent } from '../events.ts';
import type { ClassificationSpecific } from '../piecesTypes.ts';
import { openImportStore } from './importStore.ts';
import type { ImportSource } from './importSource.ts';
import { errorMessage, type FromChild, type ImportStart, type ImportHostData, type SourceMessage, type ToChild } from './importProtocol.ts';

// node:sqlite's "experimental" warning is for developers; this process's stderr is the store's log.
process.removeAllListeners('warning');
if (!process.send) throw new Error('importHost.ts runs as a child process with an IPC channel');
const data = JSON.parse(process.argv[2] ?? '') as ImportHostData;
const post = (message: FromChild): void => void process.send?.(message);
// The store's process is gone (killed, crashed): nothing may write to its store any more. A batch
// being written is not committed: SQLite drops it, as after any crash.
process.on('disconnect', () => process.exit(0));

/**
 * How long the end of a session merges the search index here before leaving the rest to the store's
 * process: within the 10 s that process waits for this one to close (importProcess.ts). Merging a
 * 10k import into 100k snippets took about a second; a 100k import's about two.
 */
const MERGE_BUDGET_MS = 5_000;

let nextRequest = 0;
const classifying = new Map<number, (language: ClassificationSpecific) => void>();
const store = openImportStore(data.path, data.schemaVersion, {
  classify: (text) =>
    new Promise((resolve) => {
      const request = nextRequest++;
      classifying.set(request, resolve);
      post({ type: 'classify', request, text });
    }),
});

// Changes since the last batch was reported: a batch's commit fires them, the progress after it sends them.
let changes: ChangeEvent[] = [];
store.onDidChange((change) => changes.push(change));
post({ type: 'ready' });

/** The import under way (imports arrive one at a time: the store's process queues them). */
let current: { id: number; stop: AbortController; source?: (source: SourceMessage | undefined) => void } | undefined;
let running: Promise<void> = Promise.resolve();

async function* sources(id: number): AsyncIterable<ImportSource> {
  /** The pieces of a file's bytes received so far (SourceMessage's `more`). */
  const pieces: Uint8Array[] = [];
  for (;;) {
    const message = await new Promise<SourceMessage | undefined>((resolve) => {
      if (current?.id !== id) return resolve(undefined);
      current.source = resolve;
      post({ type: 'next', id });
    });
    if (message === undefined) return;
    if ('error' in message) {
      // The read failed in the store's process: it fails here as the file error it was (isFileError).
      const failure = Object.assign(new Error(message.error.message), { code: message.error.code, syscall: message.error.syscall });
      yield { name: message.name, text: () => Promise.reject(failure) };
    } else if ('jsonText' in message) {
      pieces.push(message.jsonText);
      if (message.more === true) continue;
      const jsonText = pieces.length === 1 ? message.jsonText : Buffer.concat(pieces);
      pieces.length = 0;
      yield { name: message.name, jsonText };
    } else if ('parsed' in message || 'spooled' in message) yield message;
    else {
      const { text } = message;
      yield { name: message.name, text: () => text };
    }
  }
}

function flushChanges(id: number): void {
  if (changes.length === 0) return;
  post({ type: 'written', id, changes });
  changes = [];
}

async function run({ id, options }: ImportStart): Promise<void> {
  const stop = new AbortController();
  current = { id, stop };
  try {
    const sourcesOf = sources(id);
    const summary = await store.importer.import(sourcesOf, {
      ...options,
      signal: stop.signal,
      onProgress: (progress) => {
        flushChanges(id);
        post({ type: 'progress', id, progress });
      },
    });
    flushChanges(id);
    post({ type: 'done', id, summary });
  } catch (error) {
    flushChanges(id);
    post({ type: 'failed', id, error: errorMessage(error) });
  } finally {
    current = undefined;
  }
}

process.on('message', (message: ToChild) => {
  switch (message.type) {
    case 'import':
      running = run(message);
      return;
    case 'source':
      if (current?.id === message.id) current.source?.(message.source);
      return;
    case 'cancel':
      if (current?.id === message.id) current.stop.abort();
      return;
    case 'classified':
      classifying.get(message.request)?.(message.language);
      classifying.delete(message.request);
      return;
    case 'close':
      // A batch being written is finished (or dropped, if its commit had not begun) before the connection closes.
      current?.stop.abort();
      current?.source?.(undefined);
      void running
        .then(() => (message.merge === true ? store.finish(MERGE_BUDGET_MS) : undefined))
        .finally(() => {
          store.dispose();
          process.disconnect?.();
        });
      return;
  }
});
