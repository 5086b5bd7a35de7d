/**
 * Semantic recall: while an embedding model is loaded, every asset has a vector of its name, tags
 * and text, and searches with a query fuse the lexical ranking with vector similarity
 * (hybridSearch.ts). Without an embedding model nothing here runs and search is lexical only.
 *
 * Vectors are made in the background, never inside a request: assets written since the model
 * loaded first (so a fresh snippet is found soon), then a back-fill of every asset without a
 * current vector of this model. Both go in bounded batches with a turn of the event loop between,
 * and each vector is made in the model's own process, so the host answers health and requests
 * throughout. Unloading or changing the model, or closing Satchel, cancels the work; what was
 * stored stays, and a later load only makes what is missing.
 */
import { createHash } from 'node:crypto';
import type { StoreContext } from '../context.ts';
import { Emitter, type Disposable, type Event } from '../events.ts';
import type { Embedder } from '../models/embedder.ts';
import type { AssetIndexer } from '../assets/assetService.ts';
import { embeddingIndexer } from '../assets/embeddingIndexer.ts';
import { fuseIdRankings, fuseRankings, lexicalWeight, type SemanticQuery } from './hybridSearch.ts';
import { VectorIndex } from './vectorIndex.ts';
import { VectorStore } from './vectorStore.ts';
import { codeText, wordsText } from './embeddedText.ts';

export interface RecallSources {
  /** The loaded embedding model, if any (asked again for every call: a reload is another process). */
  embedder(): Embedder | undefined;
  /** An asset's text, or undefined when there is no such asset. */
  textOf(assetId: string): string | undefined;
  tagsOf(assetId: string): readonly string[];
  registerIndexer(indexer: AssetIndexer): Disposable;
}

export interface RecallSettings {
  /** Assets embedded between two turns of the event loop. */
  readonly batchSize: number;
  /** Nearest assets a query adds to the fusion. */
  readonly candidates: number;
  /** Assets less similar than this (cosine) to the query are not semantic matches. */
  readonly minSimilarity: number;
  /** A query whose vector takes longer than this is answered lexically. */
  readonly queryTimeoutMs: number;
}

/**
 * How a search with a query runs: fused with vector similarity (`hybrid`, with the embedding model
 * and how many snippets have a vector so far) or by words only, and why.
 */
export type SearchMode =
  | { readonly mode: 'hybrid'; readonly model: string; readonly vectors: number }
  | { readonly mode: 'lexical'; readonly reason: string };

/** A search's mode, and the query ready for hybrid search when it is hybrid. */
export interface SearchPlan {
  readonly mode: SearchMode;
  readonly semantic?: SemanticQuery | undefined;
}

const lexical = (reason: string): SearchPlan => ({ mode: { mode: 'lexical', reason } });

export const defaultRecallSettings: RecallSettings = { batchSize: 16, candidates: 10, minSimilarity: 0.25, queryTimeoutMs: 2000 };

export interface RecallStatus {
  /** The embedding model in use; undefined: none is loaded, search is lexical. */
  readonly model: string | undefined;
  /**
   * `indexing`: vectors are being made for assets that have none of this model; `cancelled`: that
   * back-fill was stopped (search uses the vectors made so far; new writes still get theirs).
   */
  readonly state: 'off' | 'indexing' | 'ready' | 'cancelled' | 'failed';
  /** Assets with a vector of this model in memory. */
  readonly vectors: number;
  /** Of this back-fill: assets done and assets it started with. */
  readonly done: number;
  readonly total: number;
}

const QUERY_CHARS = 1024;
const LOAD_CHUNK = 500;
const QUERY_CACHE = 64;

interface Session {
  readonly model: string;
  readonly abort: AbortController;
  index?: VectorIndex;
  wake?: () => void;
  /** A batch is being embedded (its ids are no longer in `dirty`). */
  busy: boolean;
  /** The back-fill was cancelled; the next load of a model starts another. */
  backfillCancelled: boolean;
  readonly queries: Map<string, Float32Array>;
}

export class SemanticRecall implements Disposable {
  private readonly context: StoreContext;
  private readonly sources: RecallSources;
  private readonly settings: RecallSettings;
  private readonly store: VectorStore;
  private readonly subscriptions: Disposable[];
  private readonly dirty = new Set<string>();
  private readonly statuses = new Emitter<RecallStatus>();
  /** Fires as the state or the back-fill's progress changes (at most once per batch). */
  readonly onDidChangeStatus: Event<RecallStatus> = this.statuses.event;
  private session: Session | undefined;
  private current: RecallStatus = { model: undefined, state: 'off', vectors: 0, done: 0, total: 0 };
  private worker: Promise<void> = Promise.resolve();

  constructor(context: StoreContext, sources: RecallSources, settings: Partial<RecallSettings> = {}) {
    this.context = context;
    this.sources = sources;
    this.settings = { ...defaultRecallSettings, ...settings };
    this.store = new VectorStore(context.database);
    this.subscriptions = [
      sources.registerIndexer(
        embeddingIndexer(context.database, this.store, {
          changed: (id) => this.changed(id),
          removed: (id) => this.removed(id),
        }),
      ),
      context.onDidChange((change) => {
        if (change.kind === 'model') this.refresh();
      }),
    ];
    this.refresh();
  }

  status(): RecallStatus {
    return { ...this.current, vectors: this.session?.index?.size ?? 0 };
  }

  /** Resolves once the background work has nothing left to do (or was cancelled). For tests and benchmarks. */
  async idle(): Promise<void> {
    for (;;) {
      const worker = this.worker;
      const session = this.session;
      if (!session || session.abort.signal.aborted) return worker;
      if (this.current.state !== 'indexing' && this.dirty.size === 0 && session.index && !session.busy) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  /**
   * A query ready for hybrid search, or undefined when search is lexical only (no embedding
   * model, its vectors still loading, or the model too slow or failing to answer).
   */
  async prepare(query: string): Promise<SemanticQuery | undefined> {
    return (await this.plan(query)).semantic;
  }

  /** `prepare`, saying how the search will run: hybrid, or lexical and why. */
  async plan(query: string): Promise<SearchPlan> {
    const session = this.session;
    const text = query.trim().slice(0, QUERY_CHARS);
    if (text === '') return lexical('the query is empty');
    if (!session) return lexical('no embedding model is loaded');
    const index = session.index;
    if (!index) return lexical(`the vectors of ${session.model} are still being read`);
    let vector = session.queries.get(text);
    if (!vector) {
      const embedder = this.embedderOf(session);
      if (!embedder) return lexical('the embedding model is being unloaded');
      try {
        vector = await withTimeout(embedder.embed(text), this.settings.queryTimeoutMs);
      } catch (error) {
        this.context.logger.warn(`Search is lexical only for this query: its vector failed (${(error as Error).message})`);
        return lexical(`the query's vector failed: ${(error as Error).message}`);
      }
      if (vector.length !== index.dimension) return lexical(`the model answered ${vector.length} dimensions, its stored vectors have ${index.dimension}`);
      session.queries.set(text, vector);
      if (session.queries.size > QUERY_CACHE) session.queries.delete(session.queries.keys().next().value as string);
    }
    // Scanned here, between turns of the event loop, not in the synchronous search. Extra
    // neighbours cover suggested (and, out of scope, pseudo) assets, which the search drops.
    const near = await index.nearestSliced(vector, 2 * this.settings.candidates, this.settings.minSimilarity);
    return { mode: { mode: 'hybrid', model: session.model, vectors: index.size }, semantic: this.semanticQuery(text, near) };
  }

  private semanticQuery(query: string, near: ReadonlyArray<{ readonly id: string; readonly similarity: number }>): SemanticQuery {
    const weight = lexicalWeight(query);
    return {
      fuse: (lexical, scope) => {
        const similarity = new Map(near.map((n) => [n.id, n.similarity]));
        const semantic = this.store
          .eligible(near.map((n) => n.id), scope.includePseudo)
          .slice(0, this.settings.candidates)
          .map((row) => ({ rowid: row.rowid, similarity: similarity.get(row.id)! }));
        return fuseRankings(lexical, semantic, scope.limit, weight);
      },
      fuseIds: (ranked, limit) => {
        const semantic = this.store.eligible(near.map((n) => n.id), false).slice(0, this.settings.candidates);
        return fuseIdRankings(ranked, semantic.map((row) => row.id), limit);
      },
    };
  }

  /** Stops the back-fill (unloading the model stops everything); false when none is running. */
  cancelBackfill(): boolean {
    const session = this.session;
    if (!session || this.current.state !== 'indexing') return false;
    session.backfillCancelled = true;
    session.wake?.();
    return true;
  }

  dispose(): void {
    this.stop();
    for (const subscription of this.subscriptions) subscription.dispose();
    this.statuses.dispose();
  }

  /** Follows the loaded embedding model: starts, keeps or cancels the session. */
  private refresh(): void {
    const model = this.sources.embedder()?.modelId;
    if (model === this.session?.model && !this.session?.abort.signal.aborted) return;
    this.stop();
    if (model === undefined) return;
    const session: Session = { model, abort: new AbortController(), busy: false, backfillCancelled: false, queries: new Map() };
    this.session = session;
    this.report({ model, state: 'indexing', vectors: 0, done: 0, total: 0 });
    const previous = this.worker;
    this.worker = previous.then(() => this.run(session));
  }

  private stop(): void {
    const session = this.session;
    if (!session) return;
    session.abort.abort();
    session.wake?.();
    this.session = undefined;
    this.dirty.clear();
    this.report({ model: undefined, state: 'off', vectors: 0, done: 0, total: 0 });
  }

  private changed(id: string): void {
    const session = this.session;
    if (!session) return; // The next load's back-fill finds it (the write marked its vector stale).
    this.dirty.add(id);
    session.wake?.();
  }

  private removed(id: string): void {
    this.dirty.delete(id);
    this.session?.index?.delete(id);
  }

  private embedderOf(session: Session): Embedder | undefined {
    const embedder = this.sources.embedder();
    return embedder?.modelId === session.model ? embedder : undefined;
  }

  private async run(session: Session): Promise<void> {
    const { signal } = session.abort;
    try {
      const embedder = this.embedderOf(session);
      if (!embedder) return;
      // The model says how long its vectors are only by making one.
      const dimension = (await embedder.embed('satchel')).length;
      if (signal.aborted) return;
      if (dimension === 0) throw new Error('the model made an empty vector');
      const index = new VectorIndex(dimension, embedder.centre?.prior.length === dimension ? embedder.centre : undefined);
      for (let after = 0; ; ) {
        const chunk = this.store.vectors(session.model, dimension, after, LOAD_CHUNK);
        for (const { assetId, vector } of chunk.vectors) index.set(assetId, vector);
        if (chunk.vectors.length < LOAD_CHUNK) break;
        after = chunk.last;
        await turn();
        if (signal.aborted) return;
      }
      session.index = index;
      let total = this.store.pendingCount(session.model, dimension);
      let done = 0;
      let cursor = 0;
      let backfilling = total > 0;
      this.context.logger.info(`Semantic recall with ${session.model}: ${index.size} vectors stored, ${total} to make.`);
      this.report({ model: session.model, state: backfilling ? 'indexing' : 'ready', vectors: index.size, done, total });
      while (!signal.aborted) {
        let ids: string[];
        if (this.dirty.size > 0) {
          // Fresh writes first: a snippet just saved should be found by meaning soon.
          ids = [...this.dirty].slice(0, this.settings.batchSize);
          for (const id of ids) this.dirty.delete(id);
        } else if (backfilling && session.backfillCancelled) {
          backfilling = false;
          this.context.logger.info(`Semantic recall with ${session.model}: back-fill cancelled at ${done} of ${total}.`);
          this.report({ model: session.model, state: 'cancelled', vectors: index.size, done, total });
          continue;
        } else if (backfilling) {
          const batch = this.store.pending(session.model, dimension, cursor, this.settings.batchSize);
          if (batch.ids.length === 0) {
            backfilling = false;
            done = total;
            this.context.logger.info(`Semantic recall with ${session.model}: ${index.size} vectors, back-fill done.`);
            this.report({ model: session.model, state: 'ready', vectors: index.size, done, total });
            continue;
          }
          cursor = batch.last;
          ids = batch.ids;
          done += ids.length;
          total = Math.max(total, done);
        } else {
          await new Promise<void>((resolve) => (session.wake = resolve));
          session.wake = undefined;
          continue;
        }
        session.busy = true;
        try {
          await this.embedBatch(session, index, ids);
        } finally {
          session.busy = false;
        }
        if (signal.aborted) return;
        if (backfilling || this.current.state === 'indexing') {
          this.report({ model: session.model, state: backfilling ? 'indexing' : 'ready', vectors: index.size, done, total });
        }
        await turn();
      }
    } catch (error) {
      if (signal.aborted) return;
      this.context.logger.warn(`Semantic recall with ${session.model} stopped: ${(error as Error).message}`);
      this.report({ ...this.current, state: 'failed' });
    }
  }

  /** Makes and stores the vectors of `ids` whose embedded text changed; the others are confirmed current. */
  private async embedBatch(session: Session, index: VectorIndex, ids: readonly string[]): Promise<void> {
    const embedder = this.embedderOf(session);
    if (!embedder || session.abort.signal.aborted) return;
    const wanted: Array<{ assetId: string; source: string; text: string }> = [];
    const unchanged: string[] = [];
    for (const id of ids) {
      const text = this.embeddedText(id, embedder.reads);
      if (text === undefined) continue; // Deleted meanwhile.
      const source = createHash('sha256').update(text).digest('base64url');
      if (this.store.sourceOf(id, session.model, index.dimension) === source && index.has(id)) unchanged.push(id);
      else wanted.push({ assetId: id, source, text });
    }
    const made: Array<{ assetId: string; source: string; vector: Float32Array }> = [];
    const keep = (entry: (typeof wanted)[number], vector: Float32Array | undefined) => {
      if (vector?.length === index.dimension) made.push({ assetId: entry.assetId, source: entry.source, vector });
    };
    let batched = false;
    if (embedder.embedMany && wanted.length > 1) {
      try {
        const vectors = await embedder.embedMany(wanted.map((entry) => entry.text));
        wanted.forEach((entry, i) => keep(entry, vectors[i]));
        batched = true;
      } catch (error) {
        // The model is gone (the session ends with it), or one text failed the batch: one by one below.
        if (!this.embedderOf(session)) return;
        this.context.logger.warn(`A batch of ${wanted.length} vectors failed, made one by one: ${(error as Error).message}`);
      }
    }
    if (!batched) {
      for (const entry of wanted) {
        if (session.abort.signal.aborted) return;
        try {
          keep(entry, await embedder.embed(entry.text));
        } catch (error) {
          // The model is gone (the session ends with it) or could not read this text: leave it stale.
          if (!this.embedderOf(session)) return;
          this.context.logger.warn(`No vector for asset ${entry.assetId}: ${(error as Error).message}`);
        }
      }
    }
    if (session.abort.signal.aborted) return;
    this.store.confirm(unchanged, session.model);
    const written = new Set(this.store.write(session.model, made));
    for (const entry of made) if (written.has(entry.assetId)) index.set(entry.assetId, entry.vector);
    // The query cache holds vectors, not results: it stays valid.
  }

  private embeddedText(id: string, reads: Embedder['reads']): string | undefined {
    const name = this.store.nameOf(id);
    const text = this.sources.textOf(id);
    if (name === undefined || text === undefined) return undefined;
    return (reads === 'words' ? wordsText : codeText)(name, this.sources.tagsOf(id), text);
  }

  private report(status: RecallStatus): void {
    this.current = status;
    this.statuses.fire(status);
  }
}

function turn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    promise.then(resolve, reject).finally(() => clearTimeout(timer));
  });
}
