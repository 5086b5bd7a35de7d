/** The model catalog: downloads, loading into memory, custom imports. */
import type { Model, ModelDeleteCacheOutput, Models } from '../core/wire.ts';
import type { RecallStatus } from '../core/search/semanticRecall.ts';
import { pathOf, type BodyIn } from '../wire/operation.ts';
import { modelOperations as op } from '../wire/models.ts';
import { seg, type HttpTransport } from './http.ts';

export class ModelsClient {
  private readonly http: HttpTransport;

  constructor(http: HttpTransport) {
    this.http = http;
  }

  list(): Promise<Models> {
    return this.http.json('GET', '/models');
  }

  get(id: string): Promise<Model> {
    return this.http.json('GET', `/model/${seg(id)}`);
  }

  download(id: string): Promise<Model> {
    return this.http.json('POST', `/model/${seg(id)}/download`);
  }

  cancelDownload(id: string): Promise<Model> {
    return this.http.json('POST', `/model/${seg(id)}/download/cancel`);
  }

  load(id: string): Promise<Model> {
    return this.http.json('POST', `/model/${seg(id)}/load`, { timeoutMs: 300_000 });
  }

  unload(id: string): Promise<Model> {
    return this.http.json('POST', `/model/${seg(id)}/unload`);
  }

  unloadAll(): Promise<void> {
    return this.http.void('POST', '/models/unload');
  }

  deleteCache(id: string): Promise<ModelDeleteCacheOutput> {
    const body: BodyIn<typeof op.deleteCache> = {};
    return this.http.json(op.deleteCache.method, pathOf(op.deleteCache, { model: id }), { body });
  }

  delete(id: string): Promise<void> {
    return this.http.void('POST', `/models/${seg(id)}/delete`);
  }

  /** Registers a model file already on this machine (copied into the data directory and verified). */
  importFile(file: BodyIn<typeof op.import>): Promise<Model> {
    return this.http.json(op.import.method, pathOf(op.import), { body: file, timeoutMs: 600_000 });
  }

  /** Whether search is hybrid (an embedding model is loaded) and the progress of its back-fill. */
  semanticStatus(): Promise<RecallStatus> {
    return this.http.json('GET', '/search/semantic');
  }

  cancelSemanticBackfill(): Promise<{ cancelled: boolean; status: RecallStatus }> {
    return this.http.json('POST', '/search/semantic/cancel');
  }

  create(seed: BodyIn<typeof op.create>): Promise<Model> {
    return this.http.json(op.create.method, pathOf(op.create), { body: seed });
  }
}
