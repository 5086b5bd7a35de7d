/**
 * Imports snippet files: each file is read into snippets (detect.ts), exact duplicates of saved
 * assets and of snippets earlier in the same import are skipped, and the rest are written a batch
 * per transaction (BulkWriter). Between batches the event loop gets a turn (the host keeps
 * answering), progress is reported and cancellation is honoured: a cancelled import keeps the
 * batches already written and says so. Re-running an import skips everything it already wrote.
 */
import type { ClassificationSpecific } from '../piecesTypes.ts';
import { renderSnippet } from '../snippets/snippetSyntax.ts';
import { languageFromHints } from '../classify/hints.ts';
import type { BulkAsset, BulkWriter } from '../assets/bulkWriter.ts';
import { DomainError } from '../errors.ts';
import { authorOf, type Author } from '../history/authors.ts';
import { parsedSource, type ImportSource } from './importSource.ts';
import { isFileError } from './files.ts';
import { suggestName } from '../assets/content.ts';
import { BatchPreparer } from './batchPreparer.ts';
import type { PreparedAsset } from './preparedAsset.ts';
import type { ImportedSnippet, ImportFormat, ItemFailure, ParsedFile } from './types.ts';
import type { VaultConversation } from '../sync/vaultConversations.ts';

export interface ImportCounts {
  /** Files read so far, and the number given (undefined while a folder is still being listed). */
  readonly filesDone: number;
  readonly files: number | undefined;
  /** Snippets found in the files read so far. */
  readonly found: number;
  readonly imported: number;
  /** Snippets an earlier import of the same file made, changed since in the file: updated (a revision each). */
  readonly updated: number;
  readonly duplicates: number;
  readonly failed: number;
  /** A vault's conversations written (created or changed). */
  readonly conversations?: number | undefined;
}

export interface ImportProgress extends ImportCounts {
  readonly file: string;
}

export interface ImportSummary extends ImportCounts {
  /** Why items or whole files failed (the first MAX_REPORTED_FAILURES; `failed` counts all). */
  readonly failures: ItemFailure[];
  readonly formats: Partial<Record<ImportFormat, number>>;
  readonly cancelled: boolean;
  readonly elapsedMs: number;
  /** What was imported from, when it was no file (a Pieces OS: "Pieces OS 12.3.1 at 127.0.0.1:39300"). */
  readonly source?: string | undefined;
}

export interface ImportOptions {
  readonly signal?: AbortSignal | undefined;
  readonly onProgress?: ((progress: ImportProgress) => void) | undefined;
  /** Assets per transaction. */
  readonly batchSize?: number | undefined;
  /** Skip detection: every file is read as this format. */
  readonly format?: ImportFormat | undefined;
  /** How many files there are, when the caller knows. */
  readonly files?: number | undefined;
}

export interface ImporterDeps {
  readonly writer: BulkWriter;
  /** Whether an asset with exactly this text is already saved. */
  isSaved(text: string): boolean;
  /** Writes a vault's conversations exactly (each in its own transaction); returns how many changed. */
  putConversations?(conversations: readonly VaultConversation[], fail: (id: string, reason: string) => void): number;
  /** Whether an asset with this id is saved (a vault's record then updates it). */
  exists?(id: string): boolean;
  /** The asset an earlier import made from this source ("file › item"), while it exists (ImportOrigins). */
  originOf?(source: string): string | undefined;
  /** The language of a snippet its file did not name one for. */
  classify(text: string): Promise<ClassificationSpecific>;
  /**
   * Makes the batches' derived rows, owned (and disposed) by the caller (the import process keeps
   * one for its life). Default: one per import, on a worker thread (in-thread if it cannot start).
   */
  readonly preparer?: BatchPreparer | undefined;
}

/**
 * Without a fixed batch size, batches are sized to take about this long to write: larger batches
 * cost less per asset (fewer commits, fewer and larger FTS5 segments: 12% less CPU at 2,000 than
 * at 500), and the event loop waits for the whole of one.
 */
const BATCH_TARGET_MS = 250;
const FIRST_BATCH = 500;
/**
 * A commit costs about the index pages the batch touched (UUID- and hash-keyed B-trees take
 * inserts on random pages), whatever its size, so in a large store smaller batches cost more per
 * asset. Measured into a 100k-asset store (5,000 assets, import settings of BulkWriter.begin):
 * batches of 250 took 9.2 s, of 500 5.8 s (0.4–0.9 s each), of 1,000 6.4 s (1.2–1.4 s each);
 * batches of 50 had made ~140 checkpoints. So batches stay at 500 or more, and there the pause
 * grows instead.
 */
const MIN_BATCH = 500;
const MAX_BATCH = 5_000;
/** Text per transaction: a batch of large snippets commits sooner (bounds memory and the event loop's pause). */
const BATCH_CHARS = 8 * 1024 * 1024;
const MAX_REPORTED_FAILURES = 1000;
/**
 * Classifications asked at once: enough to keep the classifier's worker busy across the trip to
 * the host's process and back, few enough that a cancel stops them at once.
 */
const CLASSIFY_CONCURRENCY = 4;

/** Who an import's revisions are by: the import, named by the file the snippets came from. */
export function importAuthor(file: string): Author {
  return authorOf('import', file.split(/[\\/]/).pop() || file);
}

export class SnippetImporter {
  private readonly deps: ImporterDeps;
  /** Imports run one after another: two at once could each find a snippet unsaved and both write it. */
  private queue: Promise<unknown> = Promise.resolve();
  /**
   * The batch size the last import arrived at: a large import comes as many requests, and each
   * adapting again from FIRST_BATCH made twice the commits (and FTS5 segments) at 100k.
   */
  private learnedBatch = FIRST_BATCH;

  constructor(deps: ImporterDeps) {
    this.deps = deps;
  }

  import(sources: Iterable<ImportSource> | AsyncIterable<ImportSource>, options: ImportOptions = {}): Promise<ImportSummary> {
    const run = this.queue.then(async () => {
      const session = this.deps.writer.begin();
      const preparer = this.deps.preparer ?? new BatchPreparer();
      try {
        const learned = { get: () => this.learnedBatch, set: (size: number) => void (this.learnedBatch = size) };
        return await new ImportRun(this.deps, options, preparer, learned).run(sources);
      } finally {
        if (preparer !== this.deps.preparer) preparer.dispose();
        session.dispose();
      }
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * Resolves once the imports queued so far are done and the search index is merged after them
   * (imports defer FTS5's merging: segmentMerger.ts). Searches are correct before; faster after.
   */
  async merged(): Promise<void> {
    await this.queue;
    await this.deps.writer.merged();
  }
}

/** The snippets gathered for the next batch; a repeat among them is not in the store yet, so it is caught here. */
interface Gathered {
  readonly snippets: ImportedSnippet[];
  chars: number;
  readonly texts: Set<string>;
}

/**
 * The batch whose derived rows the worker is making while the writer commits the one before.
 * `endsFiles`: files whose last batch it is, counted done once it is written.
 */
interface InFlight {
  readonly assets: BulkAsset[];
  readonly prepared: Promise<PreparedAsset[]>;
  readonly file: string;
  endsFiles: number;
  /** Its texts: a repeat of one of them is not in the store yet either. */
  readonly texts: ReadonlySet<string>;
}

/** One import, step by step: read each file, gather its snippets into batches, classify, prepare and write them, count. */
class ImportRun {
  private readonly started = performance.now();
  private batchSize: number;
  private firstBatch = true;
  private readonly counts: { -readonly [K in keyof ImportCounts]: ImportCounts[K] };
  private readonly failures: ItemFailure[] = [];
  private readonly formats: Partial<Record<ImportFormat, number>> = {};
  private gathered: Gathered = { snippets: [], chars: 0, texts: new Set() };
  private inFlight: InFlight | undefined;

  private readonly deps: ImporterDeps;
  private readonly options: ImportOptions;
  private readonly preparer: BatchPreparer;
  /** The batch size the importer's last import arrived at (SnippetImporter.learnedBatch). */
  private readonly learned: { get(): number; set(size: number): void };

  constructor(deps: ImporterDeps, options: ImportOptions, preparer: BatchPreparer, learned: { get(): number; set(size: number): void }) {
    this.deps = deps;
    this.options = options;
    this.preparer = preparer;
    this.learned = learned;
    // The first batch is small whatever was learned: nothing is written until it is prepared.
    this.batchSize = Math.max(1, options.batchSize ?? FIRST_BATCH);
    this.counts = { filesDone: 0, files: options.files, found: 0, imported: 0, updated: 0, duplicates: 0, failed: 0 };
  }

  async run(sources: Iterable<ImportSource> | AsyncIterable<ImportSource>): Promise<ImportSummary> {
    // Cancelled before it began: not even the first file is asked for (it may be tens of MB).
    if (this.cancelled) return this.summary(true);
    for await (const source of sources) {
      // Cancelled: the batch being prepared is dropped; only written batches count.
      if (this.cancelled) return this.summary(true);
      const parsed = await this.parse(source);
      if (parsed !== undefined && !(await this.importFile(source.name, parsed))) return this.summary(true);
    }
    return this.summary(!(await this.writeInFlight()));
  }

  private get cancelled(): boolean {
    return this.options.signal?.aborted ?? false;
  }

  /** The file's snippets, or undefined when it cannot be read or parsed (counted as a failed file, done). */
  private async parse(source: ImportSource): Promise<ParsedFile | undefined> {
    try {
      return await parsedSource(source, this.options.format);
    } catch (error) {
      if (!(error instanceof DomainError) && !isFileError(error)) throw error;
      this.fail({ source: source.name, reason: (error as Error).message });
      this.counts.filesDone++;
      this.options.onProgress?.({ ...this.counts, file: source.name });
      return undefined;
    }
  }

  /** Gathers a file's snippets into batches and writes them, then its conversations; false when cancelled. */
  private async importFile(file: string, parsed: ParsedFile): Promise<boolean> {
    const { counts } = this;
    this.formats[parsed.format] = (this.formats[parsed.format] ?? 0) + 1;
    counts.found += parsed.snippets.length;
    for (const failure of parsed.failures) this.fail(failure);
    for (const snippet of parsed.snippets) {
      if (!this.gather(snippet)) continue;
      if (this.gathered.snippets.length >= this.batchSize || this.gathered.chars >= BATCH_CHARS) {
        await this.flush(file);
        if (this.cancelled) return false;
      }
    }
    if (parsed.conversations !== undefined && parsed.conversations.length > 0 && this.deps.putConversations) {
      // Conversations link to snippets: the snippets before them are written first.
      await this.flush(file);
      if (!(await this.writeInFlight())) return false;
      counts.conversations = (counts.conversations ?? 0) + this.deps.putConversations(parsed.conversations, (id, reason) => this.fail({ source: `${file} › ${id}`, reason }));
    }
    // A file's last batch is prepared while the next file is read; the file counts as done once it is written.
    await this.flush(file);
    if (this.inFlight !== undefined) {
      this.inFlight.endsFiles++;
    } else {
      counts.filesDone++;
      this.options.onProgress?.({ ...counts, file });
    }
    return true;
  }

  /** Adds a snippet to the next batch; false when it is a duplicate (counted as one). */
  private gather(snippet: ImportedSnippet): boolean {
    const { gathered } = this;
    // A vault's records are matched by id, so two with one text both stay.
    if (snippet.record === undefined && (gathered.texts.has(snippet.text) || this.inFlight?.texts.has(snippet.text) || this.deps.isSaved(snippet.text))) {
      this.counts.duplicates++;
      return false;
    }
    gathered.snippets.push(snippet);
    gathered.texts.add(snippet.text);
    gathered.chars += snippet.text.length;
    return true;
  }

  /** Sends the gathered batch to be prepared and writes the batch before it meanwhile. */
  private async flush(file: string): Promise<void> {
    const { snippets: batch, texts } = this.gathered;
    if (batch.length === 0) return;
    // After the small first batch, the size an earlier import of this session arrived at.
    if (this.firstBatch && this.options.batchSize === undefined) this.batchSize = this.learned.get();
    this.firstBatch = false;
    this.gathered = { snippets: [], chars: 0, texts: new Set() };
    const assets = await this.assetsOf(batch);
    // Cancelled while classifying: the batch is dropped, as one cancelled while being prepared.
    if (assets === undefined) return;
    const prepared = this.preparer.prepare(assets.map((asset) => asset.text));
    await this.writeInFlight();
    this.inFlight = { assets, prepared, file, endsFiles: 0, texts };
  }

  /** What the batch's snippets are written as: each with its language, and the asset it replaces; undefined when cancelled meanwhile. */
  private async assetsOf(batch: readonly ImportedSnippet[]): Promise<BulkAsset[] | undefined> {
    // An update keeps the asset's language unless the file names one: nothing to classify for it.
    const replaces = batch.map((snippet) =>
      snippet.record !== undefined ? (this.deps.exists?.(snippet.record.id) ? snippet.record.id : undefined) : this.deps.originOf?.(snippet.source),
    );
    const languages = await this.languagesOf(
      batch.map((snippet, index) => (replaces[index] !== undefined && snippet.language === undefined ? { ...snippet, language: 'txt' as ClassificationSpecific } : snippet)),
    );
    if (languages === undefined) return undefined;
    return batch.map((snippet, index): BulkAsset => {
      const replaced = replaces[index];
      return {
        name: snippet.name || suggestName(snippet.text),
        text: snippet.text,
        language: languages[index]!,
        tags: snippet.tags,
        description: snippet.description,
        syntax: snippet.syntax,
        prefixes: snippet.prefixes,
        origin: snippet.source,
        replaces: replaced !== undefined ? { id: replaced, languageGiven: snippet.language !== undefined } : undefined,
        record: snippet.record,
      };
    });
  }

  /**
   * The batch's languages, those its file did not name asked of the classifier a few at a time:
   * a batch of 5,000 asked at once queued 5,000 requests, and a cancelled import went on
   * classifying its whole batch (minutes of the model's time) before it noticed. Undefined when
   * the import is cancelled meanwhile.
   */
  private async languagesOf(batch: readonly ImportedSnippet[]): Promise<ClassificationSpecific[] | undefined> {
    const languages: ClassificationSpecific[] = [];
    let next = 0;
    const classifyRest = async (): Promise<void> => {
      while (next < batch.length && !this.cancelled) {
        const index = next++;
        const snippet = batch[index]!;
        if (snippet.language !== undefined) {
          languages[index] = snippet.language;
          continue;
        }
        // A template is read as it inserts: `$0` and `${1:name}` are no language's code (`$0` reads as Swift's closures).
        const readable = snippet.syntax ? renderSnippet(snippet.text) : snippet.text;
        // A snippet named like a file (a gist's `fib.py`) is that file's language; the classifier reads shebangs.
        languages[index] = languageFromHints({ fileName: snippet.name }, readable) ?? (await this.deps.classify(readable));
      }
    };
    await Promise.all(Array.from({ length: CLASSIFY_CONCURRENCY }, classifyRest));
    return this.cancelled ? undefined : languages;
  }

  /** Writes the batch being prepared; false when the import was cancelled first (the batch is dropped, unwritten). */
  private async writeInFlight(): Promise<boolean> {
    if (this.inFlight === undefined) return true;
    const { assets, prepared, file, endsFiles } = this.inFlight;
    this.inFlight = undefined;
    const rows = await prepared;
    if (this.cancelled) return false;
    const writing = performance.now();
    const { unchanged } = this.deps.writer.write(assets, importAuthor(file), rows);
    if (this.options.batchSize === undefined) {
      const perAsset = (performance.now() - writing) / assets.length;
      this.batchSize = Math.round(Math.min(MAX_BATCH, Math.max(MIN_BATCH, BATCH_TARGET_MS / Math.max(perAsset, 0.001))));
      this.learned.set(this.batchSize);
    }
    const { counts } = this;
    // A vault's record already exactly as saved counts as a duplicate.
    const updated = assets.filter((asset) => asset.replaces !== undefined).length;
    counts.imported += assets.length - updated;
    counts.updated += updated - unchanged;
    counts.duplicates += unchanged;
    counts.filesDone += endsFiles;
    this.options.onProgress?.({ ...counts, file });
    // A turn for the event loop between transactions: health, SIGTERM and other requests.
    await new Promise((resolve) => setImmediate(resolve));
    return true;
  }

  private fail(failure: ItemFailure): void {
    this.counts.failed++;
    if (this.failures.length < MAX_REPORTED_FAILURES) this.failures.push(failure);
  }

  private summary(cancelled: boolean): ImportSummary {
    return { ...this.counts, failures: this.failures, formats: this.formats, cancelled, elapsedMs: Math.round(performance.now() - this.started) };
  }
}
