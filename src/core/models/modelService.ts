import { rm, stat } from 'node:fs/promises';
import { basename, isAbsolute } from 'node:path';
import type { StoreContext } from '../context.ts';
import type { LanguageClassifier } from '../classify/languageClassifier.ts';
import type { TextGenerator } from './textGenerator.ts';
import type { Embedder } from './embedder.ts';
import { detectUsage } from './ggufUsage.ts';
import type { Model, ModelDeleteCacheOutput, ModelDownloadProgress, Models, SeededModel } from '../piecesTypes.ts';
import { ConflictError, ForbiddenError, InvalidInputError, UnavailableError, UnsupportedError } from '../errors.ts';
import { stamp, newId } from '../time.ts';
import { byteDescriptor, canChat, CLASSIFIER_ID, ENCODER_MAX_TOKENS, ENCODER_RAM_BYTES, shippedCatalog, withBaseUrl } from './catalog.ts';
import { encoderFiles } from './encoderFiles.ts';
import { ModelStore } from './modelStore.ts';
import { partialBytes } from './downloader.ts';
import { LoadedModels } from './loadedModels.ts';
import { ProgressFeed, type ModelDownloadEvent } from './progressFeed.ts';
import type { Event } from '../events.ts';
import type { ModelFoundation, ModelUsage } from './enums.ts';
import { defaultModelSettings, type ModelSettings } from './modelSettings.ts';
import { expectGguf, fileNameFor, ModelFiles, sourceOf } from './modelFiles.ts';
import { editableFields, KnownModels, type Known } from './knownModels.ts';
import { ModelDownloads } from './modelDownloads.ts';

export { defaultModelSettings, type ModelSettings } from './modelSettings.ts';

/** What a file import needs beyond the path; everything else gets a sensible default. */
export interface ModelImport {
  readonly path: string;
  readonly name?: string;
  readonly description?: string;
  readonly version?: string;
  readonly usage?: ModelUsage;
  readonly foundation?: ModelFoundation;
}

/**
 * The models area: the language classifier, the shipped catalog and custom GGUF models; resumable
 * verified downloads with progress; loading into a child process (at most one text and one
 * embedding model), idle unload, and the text generator conversations use when a model is loaded.
 * Which models exist is knownModels.ts, their files modelFiles.ts, their downloads modelDownloads.ts.
 */
export class ModelService {
  private readonly context: StoreContext;
  readonly settings: ModelSettings;
  private readonly classifier: LanguageClassifier;
  private readonly store: ModelStore;
  private readonly models: KnownModels;
  private readonly files: ModelFiles;
  private readonly downloads: ModelDownloads;
  private readonly loaded: LoadedModels;
  private readonly progress: ProgressFeed;
  /** Download progress of every model, throttled; state changes always come through. */
  readonly onDidChangeDownload: Event<ModelDownloadEvent>;
  private closed = false;

  constructor(context: StoreContext, dataDir: string, classifier: LanguageClassifier, settings: Partial<ModelSettings>) {
    this.context = context;
    this.classifier = classifier;
    this.settings = { ...defaultModelSettings, ...settings };
    this.store = new ModelStore(context.database);
    let entries = this.settings.catalog ?? shippedCatalog();
    if (this.settings.catalogBaseUrl) entries = withBaseUrl(entries, this.settings.catalogBaseUrl);
    // Offered when this build carries its files.
    this.models = new KnownModels(entries, this.store, encoderFiles());
    this.files = new ModelFiles(dataDir);
    this.progress = new ProgressFeed(this.settings.progressIntervalMs);
    this.onDidChangeDownload = this.progress.event;
    this.downloads = new ModelDownloads(context, this.store, this.files, this.progress, this.settings.retryBackoffMs);
    this.loaded = new LoadedModels(this.settings, (id) => this.context.publish({ kind: 'model', id }));
    try {
      this.store.interruptDownloads();
    } catch (error) {
      // A full disk must not keep the host from starting: a row left 'downloading' with no download
      // running is read as interrupted (see `ModelDownloads.stateOf`).
      this.context.logger.warn(`Could not mark cut-off downloads as interrupted: ${(error as Error).message}`);
    }
  }

  list(): Models {
    return { iterable: this.models.all().map((known) => this.view(known)) };
  }

  identifiers(): string[] {
    return this.models.all().map((known) => known.base.id);
  }

  get(id: string): Model {
    return this.view(this.models.get(id));
  }

  /** Registers a custom model; a seed naming an existing model (same `unique`, or same name and version) returns that one. */
  create(seed: SeededModel): Model {
    if (seed.cloud) throw new UnsupportedError('Satchel runs local models only: cloud must be false.');
    const existing = this.models.duplicateOf(seed);
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
    const known = this.models.languageModel(model.id);
    await this.downloads.run(known);
    const row = this.store.get(model.id);
    if (row?.state !== 'downloaded') throw new UnavailableError(`Importing ${input.path} failed: ${row?.error ?? row?.state}`);
    return this.get(model.id);
  }

  /** Updates a custom model's fields; built-in models cannot be changed. */
  async update(model: Model): Promise<Model> {
    const known = this.models.get(model.id);
    if (known.kind !== 'llm' || !known.custom || !known.row?.data) {
      throw new ForbiddenError(`${known.base.name} is a built-in model; only custom models can be updated.`);
    }
    if (model.cloud) throw new UnsupportedError('Satchel runs local models only: cloud must be false.');
    const row = known.row;
    const data = { ...row.data, ...editableFields(model), id: row.id, created: row.data!.created, cloud: false, custom: true } as Model;
    const source = data.unique ? sourceOf(data.unique) : undefined;
    if (source !== row.source) {
      if (this.downloads.isRunning(row.id) || this.loaded.isLoaded(row.id)) {
        throw new ConflictError(`${known.base.name} is downloading or loaded; unload or cancel before changing its source.`);
      }
      // Another source means another file: what was downloaded no longer belongs to this model.
      await rm(this.files.folder(row.id), { recursive: true, force: true });
      this.store.put({ id: row.id, custom: true, data, state: 'none', ...(source ? { source, file: fileNameFor(source) } : {}) });
    } else {
      this.store.put({ ...row, data });
    }
    this.context.publish({ kind: 'model', id: row.id });
    return this.get(row.id);
  }

  /** Deletes a custom model with its files; built-in models cannot be deleted. */
  async delete(id: string): Promise<void> {
    const known = this.models.get(id);
    if (known.kind !== 'llm' || !known.custom) {
      throw new ForbiddenError(`${known.base.name} is a built-in model; only custom models can be deleted.`);
    }
    await this.downloads.stop(id, 'cancel');
    await this.loaded.unload(id);
    await rm(this.files.folder(id), { recursive: true, force: true });
    this.context.transaction(() => {
      this.store.delete(id);
      this.context.publish({ kind: 'model', id, deleted: true });
    });
    this.progress.forget(id);
  }

  /** Starts (or joins) the download of a model and returns it with `downloading: true`. */
  async download(id: string): Promise<Model> {
    const known = this.models.get(id);
    if (known.kind === 'standIn') throw standInRefusal(known.base, 'downloaded');
    if (known.kind === 'classifier' || known.kind === 'encoder' || this.downloads.isDownloaded(known) || this.downloads.isRunning(id)) return this.view(known);
    if (!known.source) {
      throw new UnsupportedError(`${known.base.name} has no download source; set its unique to a URL or an absolute path.`);
    }
    const remaining = (known.declaredBytes ?? 0) - (await partialBytes(this.downloads.filePath(known)));
    await this.files.ensureDisk(remaining);
    // Checked again after the await: a concurrent request may have started it meanwhile.
    this.downloads.ensure(this.models.languageModel(id));
    return this.get(id);
  }

  /** Stops a download (or drops an interrupted one): the partial file goes, the model is left not downloaded. */
  async cancelDownload(id: string): Promise<Model> {
    const known = this.models.get(id);
    if (known.kind === 'llm') await this.downloads.cancel(known);
    return this.get(id);
  }

  downloadProgress(id: string): ModelDownloadProgress {
    const known = this.models.get(id);
    if (known.kind === 'classifier' || known.kind === 'encoder') return { status: 'COMPLETED', percentage: 100 };
    if (known.kind === 'standIn') return { status: 'UNKNOWN', percentage: 0 };
    return this.downloads.progressOf(known);
  }

  /** Loads a downloaded model (replacing a loaded model of the same role) and returns it loaded. */
  async load(id: string): Promise<Model> {
    const known = this.models.get(id);
    if (known.kind === 'classifier') {
      await this.classifier.load();
      this.context.publish({ kind: 'model', id });
      return this.view(known);
    }
    if (known.kind === 'standIn') throw standInRefusal(known.base, 'loaded');
    if (known.kind === 'encoder') {
      await this.loaded.load({
        runtime: 'encoder',
        id,
        name: known.base.name,
        role: 'embedding',
        files: known.files,
        maxTokens: ENCODER_MAX_TOKENS,
        declaredRam: ENCODER_RAM_BYTES,
      });
      return this.get(id);
    }
    if (!this.downloads.isDownloaded(known)) {
      throw new ConflictError(`${known.base.name} is not downloaded; download it before loading it.`);
    }
    await this.loaded.load({
      runtime: 'llama',
      id,
      name: known.base.name,
      role: known.role,
      modelPath: this.downloads.filePath(known),
      contextSize: Math.min(known.base.maxTokens?.total ?? this.settings.contextSize, this.settings.contextSize),
      ...(known.declaredRam !== undefined ? { declaredRam: known.declaredRam } : {}),
    });
    return this.get(id);
  }

  async unload(id: string): Promise<Model> {
    const known = this.models.get(id);
    if (known.kind === 'classifier') {
      await this.classifier.unload();
      this.context.publish({ kind: 'model', id });
    } else if (known.kind === 'llm' || known.kind === 'encoder') await this.loaded.unload(id);
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
    const known = this.models.get(id);
    if (known.kind === 'classifier' || known.kind === 'encoder') {
      throw new UnsupportedError(`Deleting the cache is only available for downloaded language models; ${known.base.name} ships with Satchel.`);
    }
    if (known.kind === 'standIn') throw standInRefusal(known.base, 'given a cache');
    await this.downloads.stop(id, 'cancel');
    await this.loaded.unload(id);
    await rm(this.files.folder(id), { recursive: true, force: true });
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

  /**
   * Refuses a model that cannot chat (the classifier, an embedding model) as the model of a
   * question. Any other model, and an id Satchel does not know, is answered by the loaded text model.
   */
  checkChatModel(id: string): void {
    const known = this.models.all().find((model) => model.base.id === id);
    if (known && !canChat(known.base)) {
      throw new InvalidInputError(`${known.base.name} cannot answer questions (its usage is ${known.base.usage}); ask with a chat model, or with none to use the loaded text model.`);
    }
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
    await this.downloads.close();
    await this.loaded.close();
    this.progress.dispose();
  }

  private view(known: Known): Model {
    if (known.kind === 'classifier') return { ...known.base, downloaded: true, downloading: false, loaded: this.classifier.loaded };
    if (known.kind === 'encoder') return { ...known.base, downloaded: true, downloading: false, loaded: this.loaded.isLoaded(known.base.id) };
    if (known.kind === 'standIn') return { ...known.base, downloaded: false, downloading: false, loaded: false };
    const downloaded = this.downloads.isDownloaded(known);
    const bytes = known.base.bytes ?? (downloaded && known.row?.bytes !== undefined ? byteDescriptor(known.row.bytes) : undefined);
    return {
      ...known.base,
      ...(bytes ? { bytes } : {}),
      downloaded,
      downloading: this.downloads.isRunning(known.base.id),
      loaded: this.loaded.isLoaded(known.base.id),
    };
  }
}

function standInRefusal(model: Model, what: string): UnsupportedError {
  return new UnsupportedError(
    `${model.name} is a stand-in for a Pieces cloud model and cannot be ${what}: Satchel has no cloud. ` +
      'Questions to it are answered by the local text model you load; download and load one of the local models.',
  );
}
