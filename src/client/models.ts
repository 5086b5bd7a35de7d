/**
 * The model catalog: downloads, loading into memory, custom imports. `list`, `get` and `importFile`
 * answer every model's true state (Satchel's own routes); download, load and the other actions
 * answer through the Pieces paths, where a model that cannot chat shows as not downloaded: read its
 * state with `get`.
 */
import type { Model, ModelDeleteCacheOutput, Models } from '../core/piecesTypes.ts';
import type { RecallStatus } from '../core/search/semanticRecall.ts';
import type { BodyIn } from '../wire/operation.ts';
import { modelOperations as op } from '../wire/models.ts';
import { searchOperations as search } from '../wire/search.ts';
import type { HttpTransport } from './http.ts';

export class ModelsClient {
  private readonly http: HttpTransport;

  constructor(http: HttpTransport) {
    this.http = http;
  }

  list(): Promise<Models> {
    return this.http.call(op.satchelList);
  }

  get(id: string): Promise<Model> {
    return this.http.call(op.satchelGet, { params: { model: id } });
  }

  download(id: string): Promise<Model> {
    return this.http.call(op.download, { params: { model: id } });
  }

  cancelDownload(id: string): Promise<Model> {
    return this.http.call(op.cancelDownload, { params: { model: id } });
  }

  load(id: string): Promise<Model> {
    return this.http.call(op.load, { params: { model: id }, timeoutMs: 300_000 });
  }

  unload(id: string): Promise<Model> {
    return this.http.call(op.unload, { params: { model: id } });
  }

  unloadAll(): Promise<void> {
    return this.http.call(op.unloadAll);
  }

  deleteCache(id: string): Promise<ModelDeleteCacheOutput> {
    return this.http.call(op.deleteCache, { params: { model: id }, body: {} });
  }

  delete(id: string): Promise<void> {
    return this.http.call(op.delete, { params: { model: id } });
  }

  /** Registers a model file already on this machine (copied into the data directory and verified). */
  importFile(file: BodyIn<typeof op.import>): Promise<Model> {
    return this.http.call(op.import, { body: file, timeoutMs: 600_000 });
  }

  /** Whether search is hybrid (an embedding model is loaded) and the progress of its back-fill. */
  semanticStatus(): Promise<RecallStatus> {
    return this.http.call(search.semantic);
  }

  cancelSemanticBackfill(): Promise<{ cancelled: boolean; status: RecallStatus }> {
    return this.http.call(search.cancelSemantic);
  }

  create(seed: BodyIn<typeof op.create>): Promise<Model> {
    return this.http.call(op.create, { body: seed });
  }
}
