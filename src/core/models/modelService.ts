import { mkdir, open, rm, stat, statfs } from 'node:fs/promises';
import { statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { basename, isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { StoreContext } from '../context.ts';
import type { LanguageClassifier } from '../classify/languageClassifier.ts';
import type { TextGenerator } from './textGenerator.ts';
import type { Embedder } from './embedder.ts';
import { detectUsage } from './ggufUsage.ts';
import type { Model, ModelDeleteCacheOutput, ModelDownloadProgress, Models, SeededModel } from '../wire.ts';
import {
  ConflictError,
  ForbiddenError,
  InsufficientResourcesError,
  InvalidInputError,
  NotFoundError,
  UnavailableError,
  UnsupportedError,
} from '../errors.ts';
import { stamp, newId } from '../time.ts';
import { byteDescriptor, catalogModel, classifierModel, CLASSIFIER_ID, roleOf, shippedCatalog, standInModels, withBaseUrl, type CatalogEntry } from './catalog.ts';
import { ModelStore, type ModelRow } from './modelStore.ts';
import { PRIVATE_DIR_MODE } from '../store/privateFiles.ts';
import { discardPartial, downloadFile, DownloadError, partialBytes, PAUSE } from './downloader.ts';
import { LoadedModels, type Role } from './loadedModels.ts';
import { ProgressFeed, type ModelDownloadEvent } from './progressFeed.ts';
import type { Event } from '../events.ts';
import type { ModelFoundation, ModelUsage } from './enums.ts';

export interface ModelSettings {
  /** Unload a loaded model after this many idle milliseconds (0 = never). */
  readonly idleUnloadMs: number;
  /** Downloads the catalog's files from this base URL instead of their own (a mirror; tests use 127.0.0.1). */
  readonly catalogBaseUrl?: string;
  /** Replaces the shipped catalog. */
  readonly catalog?: readonly CatalogEntry[];
  /** Context window a text model is loaded with (capped by what the model was trained for). */
  readonly contextSize: number;
  readonly threads: number;
  readonly loadTimeoutMs: number;
  /** First retry delay of a download; it doubles up to 8 s. */
  readonly retryBackoffMs: number;
  /** Minimum time between two progress frames of one download (state changes are never held back). */
  readonly progressIntervalMs: number;
}

export const defaultModelSettings: ModelSettings = {
  idleUnloadMs: 15 * 60_000,
  contextSize: 4096,
  // llama.cpp threads spin while they wait: leave a core to the editor, or generation crawls.
  threads: Math.max(1, Math.min(4, availableParallelism() - 1)),
  loadTimeoutMs: 120_000,
  retryBackoffMs: 250,
  progressIntervalMs: 250,
};

/** What a file import needs beyond the path; everything else gets a sensible default. */
export interface ModelImport {
  readonly path: string;
  readonly name?: string;
  readonly description?: string;
  readonly version?: string;
  readonly usage?: ModelUsage;
  readonly foundation?: ModelFoundation;
}

/** A GGUF model: from the catalog or custom. */
interface LanguageModel {
  readonly kind: 'llm';
  readonly base: Model;
  readonly role: Role;
  readonly custom: boolean;
  readonly source?: string;
  readonly file: string;
  readonly sha256?: string;
  readonly declaredBytes?: number;
  readonly declaredRam?: number;
  readonly row?: ModelRow;
}

type Known = { readonly kind: 'classifier'; readonly base: Model } | { readonly kind: 'standIn'; readonly base: Model } | LanguageModel;

interface Download {
  readonly controller: AbortController;
  done: Promise<void>;
  received: number;
  total?: number;
}

/** Fields of a custom model that the user sets (the rest is derived or fixed). */
const EDITABLE = [
  'version', 'name', 'description', 'type', 'usage', 'bytes', 'ram', 'quantization', 'foundation', 'unique',
  'parameters', 'provider', 'cpu', 'maxTokens', 'capabilities',
] as const;

const DISK_MARGIN = 64 * 1024 * 1024;

/**
 * The models area: the language classifier, the shipped catalog and custom GGUF models; resumable
 * verified downloads with progress; loading into a child process (at most one text and one
 * embedding model), idle unload, and the text generator conversations use when a model is loaded.
 */
export class ModelService {
  private readonly context: StoreContext;
  private readonly dataDir: string;
  readonly settings: ModelSettings;
  private readonly classifier: LanguageClassifier;
  private readonly store: ModelStore;
  private readonly catalog: ReadonlyMap<string, CatalogEntry>;
  private readonly downloads = new Map<string, Download>();
  private readonly loaded: LoadedModels;
  private readonly progress: ProgressFeed;
  /** Download progress of every model, throttled; state changes always come through. */
  readonly onDidChangeDownload: Event<ModelDownloadEvent>;
  private closed = false;

  constructor(context: StoreContext, dataDir: string, classifier: LanguageClassifier, settings: Partial<ModelSettings>) {
    this.context = context;
    this.classifier = classifier;
    this.dataDir = dataDir;
    this.settings = { ...defaultModelSettings, ...settings };
    this.store = new ModelStore(context.database);
    let entries = this.settings.catalog ?? shippedCatalog();
    if (this.settings.catalogBaseUrl) entries = withBaseUrl(entries, this.settings.catalogBaseUrl);
    this.catalog = new Map(entries.map((entry) => [entry.id, entry]));
    this.progress = new ProgressFeed(this.settings.progressIntervalMs);
    this.onDidChangeDownload = this.progress.event;
    this.loaded = new LoadedModels(this.settings, (id) => this.context.publish({ kind: 'model', id }));
    try {
      this.store.interruptDownloads();
    } catch (error) {
      // A full disk must not keep the host from starting: a row left 'downloading' with no download
      // running is read as interrupted (see `stateOf`).
      this.context.logger.warn(`Could not mark cut-off downloads as interrupted: ${(error as Error).message}`);
    }
  }

  list(): Models {
    return { iterable: this.all().map((known) => this.view(known)) };
  }

  identifiers(): string[] {
    return this.all().map((known) => known.base.id);
  }

  get(id: string): Model {
    return this.view(this.known(id));
  }

  /** Registers a custom model; a seed naming an existing model (same `unique`, or same name and version) returns that one. */
  create(seed: SeededModel): Model {
    if (seed.cloud) throw new UnsupportedError('Satchel runs local models only: cloud must be false.');
    const existing = this.duplicateOf(seed);
    if (existing) return this.view(existing);
    const id = newId();
    const data = { ...editableFields(seed), id, created: seed.created?.value ? seed.created : stamp(), cloud: false, custom: true } as Model;
    const source = data.unique ? sourceOf(data.unique) : undefined;
    this.context.transaction(() => {
      this.store.put({ id, custom: true, data, state: 'none', ...(source ? { source, file: fileNameFor(source) } : {}) });
      this.context.publish({ kind: 'model', id });
    });
    return this.get(id);
  }

  /** Copies a GGUF file already on disk into Satchel's model folder, verified, as a custom model. */
  async importFile(input: ModelImport): Promise<Model> {
    if (!isAbsolute(input.path)) throw new InvalidInputError(`path must be absolute, not ${JSON.stringify(input.path)}`);
    let size: number;
    try {
      const info = await stat(input.path);
      if (!info.isFile()) throw new Error('not a file');
      size = info.size;
    } catch (error) {
      throw new InvalidInputError(`Cannot read a model file at ${input.path}: ${(error as Error).message}`);
    }
    await expectGguf(input.path);
    const model = this.create({
      version: input.version ?? '1',
      created: stamp(),
      name: input.name ?? basename(input.path).replace(/\.gguf$/i, ''),
      ...(input.description ? { description: input.description } : {}),
      cloud: false,
      type: 'BALANCED',
      // A file imported without a usage says itself whether it is an embedding model.
      usage: input.usage ?? (await detectUsage(input.path)) ?? 'CODE_CONVERSATION',
      foundation: input.foundation ?? 'UNKNOWN',
      bytes: byteDescriptor(size),
      unique: input.path,
      cpu: true,
    });
    if (model.downloaded) return model;
    const known = this.languageModel(model.id);
    await (this.downloads.get(model.id) ?? this.startDownload(known)).done;
    const row = this.store.get(model.id);
    if (row?.state !== 'downloaded') throw new UnavailableError(`Importing ${input.path} failed: ${row?.error ?? row?.state}`);
    return this.get(model.id);
  }

  /** Updates a custom model's fields; built-in models cannot be changed. */
  async update(model: Model): Promise<Model> {
    const known = this.known(model.id);
    if (known.kind !== 'llm' || !known.custom || !known.row?.data) {
      throw new ForbiddenError(`${known.base.name} is a built-in model; only custom models can be updated.`);
    }
    if (model.cloud) throw new UnsupportedError('Satchel runs local models only: cloud must be false.');
    const row = known.row;
    const data = { ...row.data, ...editableFields(model), id: row.id, created: row.data!.created, cloud: false, custom: true } as Model;
    const source = data.unique ? sourceOf(data.unique) : undefined;
    if (source !== row.source) {
      if (this.downloads.has(row.id) || this.loaded.isLoaded(row.id)) {
        throw new ConflictError(`${known.base.name} is downloading or loaded; unload or cancel before changing its source.`);
      }
      // Another source means another file: what was downloaded no longer belongs to this model.
      await rm(this.folder(row.id), { recursive: true, force: true });
      this.store.put({ id: row.id, custom: true, data, state: 'none', ...(source ? { source, file: fileNameFor(source) } : {}) });
    } else {
      this.store.put({ ...row, data });
    }
    this.context.publish({ kind: 'model', id: row.id });
    return this.get(row.id);
  }

  /** Deletes a custom model with its files; built-in models cannot be deleted. */
  async delete(id: string): Promise<void> {
    const known = this.known(id);
    if (known.kind !== 'llm' || !known.custom) {
      throw new ForbiddenError(`${known.base.name} is a built-in model; only custom models can be deleted.`);
    }
    await this.stopDownload(id, 'cancel');
    await this.loaded.unload(id);
    await rm(this.folder(id), { recursive: true, force: true });
    this.context.transaction(() => {
      this.store.delete(id);
      this.context.publish({ kind: 'model', id, deleted: true });
    });
    this.progress.forget(id);
  }

  /** Starts (or joins) the download of a model and returns it with `downloading: true`. */
  async download(id: string): Promise<Model> {
    const known = this.known(id);
    if (known.kind === 'standIn') throw standInRefusal(known.base, 'downloaded');
    if (known.kind === 'classifier' || this.isDownloaded(known) || this.downloads.has(id)) return this.view(known);
    if (!known.source) {
      throw new UnsupportedError(`${known.base.name} has no download source; set its unique to a URL or an absolute path.`);
    }
    const remaining = (known.declaredBytes ?? 0) - (await partialBytes(this.filePath(known)));
    await this.ensureDisk(remaining);
    // Checked again after the await: a concurrent request may have started it meanwhile.
    if (!this.downloads.has(id)) this.startDownload(this.languageModel(id));
    return this.get(id);
  }

  /** Stops a download (or drops an interrupted one): the partial file goes, the model is left not downloaded. */
  async cancelDownload(id: string): Promise<Model> {
    const known = this.known(id);
    if (this.downloads.has(id)) await this.stopDownload(id, 'cancel');
    else if (known.kind === 'llm' && this.stateOf(known) === 'interrupted') {
      await discardPartial(this.filePath(known));
      this.updateRow(known, { state: 'canceled' });
      this.progress.report(id, { status: 'CANCELED', percentage: 0 }, true);
      this.context.publish({ kind: 'model', id });
    }
    return this.get(id);
  }

  downloadProgress(id: string): ModelDownloadProgress {
    const known = this.known(id);
    if (known.kind === 'classifier') return { status: 'COMPLETED', percentage: 100 };
    if (known.kind === 'standIn') return { status: 'UNKNOWN', percentage: 0 };
    const running = this.downloads.get(id);
    if (running) return runningProgress(running);
    if (this.isDownloaded(known)) return { status: 'COMPLETED', percentage: 100 };
    switch (this.stateOf(known)) {
      case 'interrupted': {
        // What survives of an interrupted download: how far a resume starts.
        const total = known.row?.bytes ?? known.declaredBytes;
        let kept = 0;
        try {
          kept = statSync(`${this.filePath(known)}.part`).size;
        } catch {
          // No partial file: the next download starts from zero.
        }
        return { status: 'RESET', percentage: total ? percentOf(kept, total) : 0 };
      }
      case 'failed':
        return { status: 'FAILED', percentage: 0 };
      case 'canceled':
        return { status: 'CANCELED', percentage: 0 };
      default:
        return { status: 'UNKNOWN', percentage: 0 };
    }
  }

  /** Loads a downloaded model (replacing a loaded model of the same role) and returns it loaded. */
  async load(id: string): Promise<Model> {
    const known = this.known(id);
    if (known.kind === 'classifier') {
      await this.classifier.load();
      this.context.publish({ kind: 'model', id });
      return this.view(known);
    }
    if (known.kind === 'standIn') throw standInRefusal(known.base, 'loaded');
    if (!this.isDownloaded(known)) {
      throw new ConflictError(`${known.base.name} is not downloaded; download it before loading it.`);
    }
    await this.loaded.load({
      id,
      name: known.base.name,
      role: known.role,
      modelPath: this.filePath(known),
      contextSize: Math.min(known.base.maxTokens?.total ?? this.settings.contextSize, this.settings.contextSize),
      ...(known.declaredRam !== undefined ? { declaredRam: known.declaredRam } : {}),
    });
    return this.get(id);
  }

  async unload(id: string): Promise<Model> {
    const known = this.known(id);
    if (known.kind === 'classifier') {
      await this.classifier.unload();
      this.context.publish({ kind: 'model', id });
    } else if (known.kind === 'llm') await this.loaded.unload(id);
    return this.get(id);
  }

  /** Unloads every model, the classifier included; the llama.cpp processes end. */
  async unloadAll(): Promise<void> {
    await this.loaded.unloadAll();
    const classifierWasLoaded = this.classifier.loaded;
    await this.classifier.unload();
    if (classifierWasLoaded) this.context.publish({ kind: 'model', id: CLASSIFIER_ID });
  }

  /** Removes a language model's downloaded files (unloading it first); it stays listed, not downloaded. */
  async deleteCache(id: string): Promise<ModelDeleteCacheOutput> {
    const known = this.known(id);
    if (known.kind === 'classifier') {
      throw new UnsupportedError('Deleting the cache is only available for language models; the classifier ships with Satchel.');
    }
    if (known.kind === 'standIn') throw standInRefusal(known.base, 'given a cache');
    await this.stopDownload(id, 'cancel');
    await this.loaded.unload(id);
    await rm(this.folder(id), { recursive: true, force: true });
    const row = this.store.get(id);
    // The recorded digest stays: a later download must still match the first one.
    if (row) this.store.put({ ...row, state: 'none', bytes: undefined, error: undefined });
    this.progress.report(id, { status: 'UNKNOWN', percentage: 0 }, true);
    this.context.publish({ kind: 'model', id });
    return { model: { id } };
  }

  /** The loaded text model, if any; conversations fall back to offline methods without one. */
  textGenerator(): TextGenerator | undefined {
    return this.loaded.textGenerator();
  }

  /** The loaded embedding model, if any; search is lexical only without one. */
  embedder(): Embedder | undefined {
    return this.loaded.embedder();
  }

  /** The OS process id of the loaded model's runtime (for diagnostics and tests). */
  runtimePid(id: string): number | undefined {
    return this.loaded.pid(id);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // Shutting down pauses downloads: their partial files resume after the restart.
    await Promise.all([...this.downloads.keys()].map((id) => this.stopDownload(id, PAUSE)));
    await this.loaded.close();
    this.progress.dispose();
  }

  // ---- models and their state

  private all(): Known[] {
    const out: Known[] = [{ kind: 'classifier', base: classifierModel() }];
    for (const entry of this.catalog.values()) out.push(this.fromCatalog(entry, this.store.get(entry.id)));
    for (const base of standInModels()) out.push({ kind: 'standIn', base });
    for (const row of this.store.customs()) out.push(this.fromCustom(row));
    return out;
  }

  private known(id: string): Known {
    if (id === CLASSIFIER_ID) return { kind: 'classifier', base: classifierModel() };
    const standIn = standInModels().find((model) => model.id === id);
    if (standIn) return { kind: 'standIn', base: standIn };
    const entry = this.catalog.get(id);
    const row = this.store.get(id);
    if (entry) return this.fromCatalog(entry, row);
    if (row?.custom) return this.fromCustom(row);
    throw new NotFoundError('model', id);
  }

  private languageModel(id: string): LanguageModel {
    const known = this.known(id);
    if (known.kind !== 'llm') throw new UnsupportedError(`${known.base.name} is not a language model.`);
    return known;
  }

  private fromCatalog(entry: CatalogEntry, row: ModelRow | undefined): LanguageModel {
    const sha256 = entry.sha256 ?? row?.sha256;
    return {
      kind: 'llm',
      base: catalogModel(entry),
      role: roleOf(entry.usage),
      custom: false,
      source: entry.url,
      file: entry.file,
      ...(sha256 ? { sha256 } : {}),
      ...(entry.bytes !== undefined ? { declaredBytes: entry.bytes } : {}),
      ...(entry.ramBytes !== undefined ? { declaredRam: entry.ramBytes } : {}),
      ...(row ? { row } : {}),
    };
  }

  private fromCustom(row: ModelRow): LanguageModel {
    const base = row.data!;
    return {
      kind: 'llm',
      base,
      role: roleOf(base.usage),
      custom: true,
      file: row.file ?? 'model.gguf',
      row,
      ...(row.source ? { source: row.source } : {}),
      ...(row.sha256 ? { sha256: row.sha256 } : {}),
      ...(base.bytes?.value !== undefined ? { declaredBytes: base.bytes.value } : {}),
      ...(base.ram?.value !== undefined ? { declaredRam: base.ram.value } : {}),
    };
  }

  private view(known: Known): Model {
    if (known.kind === 'classifier') return { ...known.base, downloaded: true, downloading: false, loaded: this.classifier.loaded };
    if (known.kind === 'standIn') return { ...known.base, downloaded: false, downloading: false, loaded: false };
    const downloaded = this.isDownloaded(known);
    const bytes = known.base.bytes ?? (downloaded && known.row?.bytes !== undefined ? byteDescriptor(known.row.bytes) : undefined);
    return {
      ...known.base,
      ...(bytes ? { bytes } : {}),
      downloaded,
      downloading: this.downloads.has(known.base.id),
      loaded: this.loaded.isLoaded(known.base.id),
    };
  }

  /** Downloaded means: recorded as complete, and the file is there with its recorded size. */
  private isDownloaded(known: LanguageModel): boolean {
    if (known.row?.state !== 'downloaded') return false;
    try {
      return statSync(this.filePath(known)).size === known.row.bytes;
    } catch {
      return false;
    }
  }

  private duplicateOf(seed: SeededModel): Known | undefined {
    return this.all().find((known) => {
      if (seed.unique) return known.base.unique === seed.unique;
      return (
        known.kind === 'llm' &&
        known.custom &&
        !known.base.unique &&
        known.base.name === seed.name &&
        known.base.version === seed.version &&
        known.base.usage === seed.usage &&
        (known.base.foundation ?? 'UNKNOWN') === (seed.foundation ?? 'UNKNOWN')
      );
    });
  }

  private folder(id: string): string {
    return join(this.dataDir, 'models', id);
  }

  private filePath(known: LanguageModel): string {
    return join(this.folder(known.base.id), known.file);
  }

  /** The recorded state, except that a download no longer running was interrupted, whatever the row says. */
  private stateOf(known: LanguageModel): ModelRow['state'] | undefined {
    const state = known.row?.state;
    return state === 'downloading' && !this.downloads.has(known.base.id) ? 'interrupted' : state;
  }

  private updateRow(known: LanguageModel, patch: Partial<ModelRow>): void {
    const row = this.store.get(known.base.id) ?? { id: known.base.id, custom: known.custom, state: 'none' as const };
    this.store.put({ ...row, ...patch });
  }

  // ---- downloads

  private startDownload(known: LanguageModel): Download {
    const id = known.base.id;
    const dest = this.filePath(known);
    const download: Download = { controller: new AbortController(), done: Promise.resolve(), received: 0, ...(known.declaredBytes ? { total: known.declaredBytes } : {}) };
    // Recorded first: when even that write fails (a full disk), no download is left registered.
    this.updateRow(known, { state: 'downloading', file: known.file, error: undefined });
    this.downloads.set(id, download);
    this.progress.report(id, { status: 'INITIALIZED', percentage: 0 }, true);
    this.context.publish({ kind: 'model', id });
    const { signal } = download.controller;
    download.done = downloadFile({
      source: known.source!,
      dest,
      ...(known.sha256 ? { sha256: known.sha256 } : {}),
      signal,
      backoffMs: this.settings.retryBackoffMs,
      ...(known.declaredBytes !== undefined ? { maxBytes: known.declaredBytes } : {}),
      onTotal: async (total, received) => {
        await this.ensureDisk(total - received);
        download.total = total;
        this.updateRow(known, { bytes: total });
      },
      // A body of unknown length (or a disk others are filling) stops while there is room left.
      onSpaceCheck: () => this.ensureDisk(0, DISK_MARGIN / 2),
      onProgress: (progress) => {
        download.received = progress.received;
        if (progress.total !== undefined) download.total = progress.total;
        this.progress.report(id, runningProgress(download));
      },
      verify: expectGguf,
    })
      .then(
        (result) => {
          // Trust on first use: with no published digest, the first complete download's is kept.
          this.record(known, { state: 'downloaded', bytes: result.bytes, sha256: known.sha256 ?? result.sha256, error: undefined });
          this.progress.report(id, { status: 'COMPLETED', percentage: 100 }, true);
        },
        async (error: unknown) => {
          if (signal.aborted && signal.reason === PAUSE) {
            this.record(known, { state: 'interrupted' });
            this.progress.report(id, { status: 'RESET', percentage: download.total ? percentOf(download.received, download.total) : 0 }, true);
          } else if (signal.aborted) {
            await discardPartial(dest).catch(() => {});
            this.record(known, { state: 'canceled', error: undefined });
            this.progress.report(id, { status: 'CANCELED', percentage: 0 }, true);
          } else {
            this.context.logger.warn(`download of model ${id} failed: ${(error as Error)?.message ?? error}`);
            // A partial file that filled the disk or outgrew its declared size is of no use to a resume.
            if (isSpaceOrSize(error)) await discardPartial(dest).catch(() => {});
            this.record(known, { state: 'failed', error: (error as Error)?.message ?? String(error) });
            this.progress.report(id, { status: 'FAILED', percentage: 0 }, true);
          }
        },
      )
      .finally(() => {
        this.downloads.delete(id);
        if (!this.closed) this.context.publish({ kind: 'model', id });
      });
    return download;
  }

  private async stopDownload(id: string, reason: string): Promise<void> {
    const download = this.downloads.get(id);
    if (!download) return;
    download.controller.abort(reason);
    await download.done;
  }

  /**
   * The bookkeeping of a download that has ended: a failed write (the disk is full) is logged, never
   * thrown, because nobody awaits it and an unhandled rejection ends the process.
   */
  private record(known: LanguageModel, patch: Partial<ModelRow>): void {
    try {
      this.updateRow(known, patch);
    } catch (error) {
      this.context.logger.warn(`Could not record the download state of model ${known.base.id}: ${(error as Error).message}`);
    }
  }

  /** Throws unless `bytes` more fit on the models' disk with `margin` to spare. */
  private async ensureDisk(bytes: number, margin = DISK_MARGIN): Promise<void> {
    if (bytes <= 0 && margin === DISK_MARGIN) return;
    const dir = join(this.dataDir, 'models');
    await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
    const info = await statfs(dir);
    const free = Number(info.bavail) * Number(info.bsize);
    if (bytes + margin > free) {
      throw new InsufficientResourcesError(
        bytes > 0
          ? `Not enough free disk space: the model needs ${byteDescriptor(bytes).readable}, ${byteDescriptor(free).readable} is free.`
          : `The disk is nearly full (${byteDescriptor(free).readable} free); the download was stopped and its partial file deleted.`,
      );
    }
  }
}

function isSpaceOrSize(error: unknown): boolean {
  return (
    error instanceof InsufficientResourcesError ||
    (error instanceof DownloadError && error.reason === 'size') ||
    (error as NodeJS.ErrnoException | undefined)?.code === 'ENOSPC'
  );
}

function editableFields(seed: Partial<Model>): Partial<Model> {
  const out: Record<string, unknown> = {};
  for (const key of EDITABLE) if (seed[key] !== undefined) out[key] = seed[key];
  return out as Partial<Model>;
}

/** A custom model's `unique` names its file when it is a URL or an absolute path. */
function sourceOf(unique: string): string | undefined {
  if (/^(https?|file):\/\//i.test(unique)) return unique;
  return isAbsolute(unique) ? unique : undefined;
}

function fileNameFor(source: string): string {
  let name: string;
  try {
    const path = /^https?:/i.test(source) ? new URL(source).pathname : /^file:/i.test(source) ? fileURLToPath(source) : source;
    name = decodeURIComponent(basename(path));
  } catch {
    name = '';
  }
  const safe = name.replace(/[^\w.\-]+/g, '_').replace(/^\.+/, '');
  return safe ? (safe.toLowerCase().endsWith('.gguf') ? safe : `${safe}.gguf`) : 'model.gguf';
}

async function expectGguf(path: string): Promise<void> {
  let head: { buffer: Buffer; bytesRead: number };
  try {
    const handle = await open(path, 'r');
    try {
      head = await handle.read(Buffer.alloc(4), 0, 4, 0);
    } finally {
      await handle.close();
    }
  } catch (error) {
    // Special files (/proc/self/mem, devices) stat as files and fail on read: the caller's input is wrong.
    throw new InvalidInputError(`Cannot read a model file at ${path}: ${(error as Error).message}`);
  }
  if (head.bytesRead < 4 || head.buffer.toString('latin1') !== 'GGUF') throw new UnsupportedError('The file is not a GGUF model.');
}

function percentOf(received: number, total: number): number {
  return Math.min(100, Math.floor((received / total) * 1000) / 10);
}

function runningProgress(download: Download): ModelDownloadProgress {
  if (download.received === 0) return { status: 'INITIALIZED', percentage: 0 };
  return { status: 'IN-PROGRESS', percentage: download.total ? percentOf(download.received, download.total) : null };
}

function standInRefusal(model: Model, what: string): UnsupportedError {
  return new UnsupportedError(
    `${model.name} is a stand-in for a Pieces cloud model and cannot be ${what}: Satchel has no cloud. ` +
      'Questions to it are answered by the local text model you load; download and load one of the local models.',
  );
}
