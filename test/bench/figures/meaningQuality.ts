/**
 * Search by meaning, measured with a real model: the quality corpus (meaning/qualityCorpus.ts) in a
 * fresh host, three query sets (hand-written paraphrases of planted targets, the meaning targets'
 * queries across 16 languages, and the corpus's own lexical queries, which hybrid search must not
 * make worse) scored as recall@1 and recall@5 three ways:
 *
 * - lexical: GET /assets/search with no embedding model loaded;
 * - vectors: the stored vectors alone, read from the host's store, against each query's vector
 *   made in this process by the same runtime, ranked by the host's own VectorIndex (cosine, centred
 *   on the library's mean for a model that asks for it): what the model knows;
 * - hybrid: GET /assets/search again once the model is loaded and every snippet has its vector.
 *
 * The model is the built-in sentence encoder, or the GGUF file SATCHEL_BENCH_EMBEDDING_MODEL names.
 * Also: the back-fill's rate (snippets embedded per second, from the load request to `ready`),
 * each hybrid search's latency (its query's vector made first, as for a new query) beside the
 * lexical one, and resident memory of the host and of the model's process.
 */
import { childRunning } from '../../support/processes.ts';
import { basename, join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { BenchClient, forEachConcurrent } from '../client.ts';
import { qualityCorpus } from '../meaning/qualityCorpus.ts';
import { cpuMsOf, memoryOf, removeDir, startChild, tempDataDir, type Built } from '../processes.ts';
import { connect, createAsset, fallbackApplication, search, seedOf } from '../satchelApi.ts';
import { latency, type Latency } from '../stats.ts';
import { untilReady } from './semantic.ts';
import { ENCODER_ID, ENCODER_MAX_TOKENS } from '../../../src/core/models/catalog.ts';
import { EncoderProcess } from '../../../src/core/models/encoderProcess.ts';
import { encoderFiles } from '../../../src/core/models/encoderFiles.ts';
import { LlamaProcess } from '../../../src/core/models/llamaProcess.ts';
import { ENCODER_CENTRE } from '../../../src/core/models/encoderCentre.ts';
import type { EmbeddingCentre } from '../../../src/core/models/embedder.ts';
import { VectorIndex } from '../../../src/core/search/vectorIndex.ts';

export const EMBEDDING_MODEL_ENV = 'SATCHEL_BENCH_EMBEDDING_MODEL';

export interface Recall {
  readonly at1: number;
  readonly at5: number;
}

export interface QuerySetFigure {
  readonly name: string;
  readonly queries: number;
  readonly lexical: Recall;
  readonly vectors: Recall;
  readonly hybrid: Recall;
  /** Queries hybrid search finds in its top 5 and lexical does not, and the reverse. */
  readonly gained: number;
  readonly lost: readonly string[];
}

export interface MeaningQualityFigure {
  readonly size: number;
  readonly model: string;
  readonly sets: readonly QuerySetFigure[];
  /** From the load request until every snippet has a vector. */
  readonly backfillMs: number;
  readonly backfillPerSecond: number;
  /** CPU time of the model's process over the back-fill, per snippet (unaffected by other load on the machine). */
  readonly backfillCpuMsPerSnippet: number;
  readonly lexicalLatency: Latency;
  /** Each query's first hybrid search: its vector is made by the model. */
  readonly hybridLatency: Latency;
  readonly hostRssBefore: number;
  readonly hostRssAfter: number;
  readonly modelRss: number;
}

export interface MeaningQualityPlan {
  readonly backfillBudgetMs: number;
  readonly loadConcurrency: number;
}

type Embed = (texts: readonly string[]) => Promise<Float32Array[]>;

export async function measureMeaningQuality(built: Built, size: number, hostArgs: (dataDir: string) => string[], plan: MeaningQualityPlan): Promise<MeaningQualityFigure> {
  const quality = qualityCorpus(size);
  const sets = [
    { name: 'paraphrases (paraphrases.ts)', queries: quality.paraphrases },
    { name: 'meaning queries (meaning/*.ts)', queries: quality.meaning },
    { name: 'lexical queries (corpus.ts)', queries: quality.lexical },
  ];
  const dataDir = tempDataDir();
  const host = await startChild(built.host, hostArgs(dataDir));
  const client = new BenchClient(host.url, plan.loadConcurrency);
  const idOf = new Map<string, string>();
  try {
    const application = (await connect(client)) ?? fallbackApplication;
    await forEachConcurrent(quality.corpus.assets, plan.loadConcurrency, async (asset) => {
      idOf.set(asset.key, await createAsset(client, seedOf(asset, application)));
    });
    const resolved = sets.map((set) => ({ ...set, queries: set.queries.map((q) => ({ query: q.query, id: idOf.get(q.target)! })) }));

    const targets = new Map(resolved.flatMap((set) => set.queries.map((q) => [q.query, q.id] as const)));
    const lexical = await searchAll(client, targets);

    const hostRssBefore = memoryOf(host.pid).rss;
    const model = await loadModel(client);
    const started = performance.now();
    await client.ok('POST', `/model/${encodeURIComponent(model.id)}/load`);
    const modelPid = childRunning(host.pid, /(encoder|llama)Host/);
    if (modelPid === undefined) throw new Error(`no model process runs under the host ${host.pid}`);
    const cpuBefore = cpuMsOf(modelPid);
    await untilReady(client, plan.backfillBudgetMs);
    const backfillMs = performance.now() - started;
    const backfillCpuMs = cpuMsOf(modelPid) - cpuBefore;

    const hybrid = await searchAll(client, targets);
    const hostRssAfter = memoryOf(host.pid).rss;
    const modelRss = memoryOf(modelPid).rss;

    const vectorRanks = await rankByVectors(join(dataDir, 'satchel.db'), model, resolved.flatMap((set) => set.queries));
    const recall = (ranks: ReadonlyMap<string, number>, queries: readonly { query: string }[]): Recall => ({
      at1: queries.filter((q) => ranks.get(q.query) === 0).length / queries.length,
      at5: queries.filter((q) => inTop5(ranks.get(q.query))).length / queries.length,
    });
    return {
      size,
      model: model.name,
      sets: resolved.map((set) => ({
        name: set.name,
        queries: set.queries.length,
        lexical: recall(lexical.ranks, set.queries),
        vectors: recall(vectorRanks, set.queries),
        hybrid: recall(hybrid.ranks, set.queries),
        gained: set.queries.filter((q) => inTop5(hybrid.ranks.get(q.query)) && !inTop5(lexical.ranks.get(q.query))).length,
        lost: set.queries.filter((q) => !inTop5(hybrid.ranks.get(q.query)) && inTop5(lexical.ranks.get(q.query))).map((q) => q.query),
      })),
      backfillMs,
      backfillPerSecond: size / (backfillMs / 1000),
      backfillCpuMsPerSnippet: backfillCpuMs / size,
      lexicalLatency: latency(lexical.times),
      hybridLatency: latency(hybrid.times),
      hostRssBefore,
      hostRssAfter,
      modelRss,
    };
  } finally {
    await client.close().catch(() => undefined);
    await host.stop();
    removeDir(dataDir);
  }
}

const inTop5 = (rank: number | undefined): boolean => rank !== undefined && rank >= 0 && rank < 5;

/** Every query through GET /assets/search: its target's rank (0-based, -1 beyond 10) and the reply's time. */
async function searchAll(client: BenchClient, targets: ReadonlyMap<string, string>): Promise<{ ranks: Map<string, number>; times: number[] }> {
  const ranks = new Map<string, number>();
  const times: number[] = [];
  for (const [query, id] of targets) {
    const reply = await search(client, query);
    times.push(reply.ms);
    ranks.set(query, reply.ids.slice(0, 10).indexOf(id));
  }
  return { ranks, times };
}

interface BenchModel {
  readonly id: string;
  readonly name: string;
  /** As the host's embedder declares it (Embedder.centre). */
  readonly centre?: EmbeddingCentre;
  /** Query vectors by the same runtime the host uses. */
  readonly embed: () => Promise<{ embed: Embed; stop: () => Promise<void> }>;
}

/** The built-in encoder, or the GGUF model SATCHEL_BENCH_EMBEDDING_MODEL names (imported into the host). */
async function loadModel(client: BenchClient): Promise<BenchModel> {
  const path = process.env[EMBEDDING_MODEL_ENV];
  if (!path) {
    const files = encoderFiles();
    if (!files) throw new Error('the built-in encoder is not installed (npm ci)');
    return {
      id: ENCODER_ID,
      name: 'Universal Sentence Encoder Lite (built in)',
      centre: ENCODER_CENTRE,
      embed: async () => {
        const encoder = await EncoderProcess.start({ files, maxTokens: ENCODER_MAX_TOKENS, timeoutMs: 120_000 });
        return { embed: (texts) => encoder.embed(texts), stop: () => encoder.stop() };
      },
    };
  }
  const reply = await client.ok('POST', '/models/import', { path, usage: 'TEXT_EMBEDDING', name: basename(path) });
  const id = (reply.body as { id?: unknown }).id;
  if (typeof id !== 'string') throw new Error(`model import answered without an id: ${reply.text.slice(0, 200)}`);
  return {
    id,
    name: basename(path),
    embed: async () => {
      const runtime = await LlamaProcess.start({ modelPath: path, role: 'embedding', contextSize: 512, threads: 1, timeoutMs: 120_000 });
      const embed: Embed = async (texts) => {
        const out: Float32Array[] = [];
        for (const text of texts) out.push(Float32Array.from(await runtime.embed(text)));
        return out;
      };
      return { embed, stop: () => runtime.stop() };
    },
  };
}

/** Each query's rank (0-based, -1 beyond 10) among the stored vectors of `model`, as the host's index ranks them. */
async function rankByVectors(databasePath: string, model: BenchModel, queries: ReadonlyArray<{ query: string; id: string }>): Promise<Map<string, number>> {
  const db = new DatabaseSync(databasePath, { readOnly: true, timeout: 10_000 });
  let rows: Array<{ asset_id: string; vector: Uint8Array }>;
  try {
    rows = db.prepare('SELECT asset_id, vector FROM asset_vectors WHERE model = ? AND stale = 0').all(model.id) as typeof rows;
  } finally {
    db.close();
  }
  if (rows.length === 0) throw new Error(`no vectors of ${model.id} are stored: vectors-only recall would read as 0%`);
  let index: VectorIndex | undefined;
  for (const row of rows) {
    const vector = new Float32Array(row.vector.buffer.slice(row.vector.byteOffset, row.vector.byteOffset + row.vector.byteLength));
    index ??= new VectorIndex(vector.length, model.centre?.prior.length === vector.length ? model.centre : undefined);
    index.set(row.asset_id, vector);
  }
  const runtime = await model.embed();
  const ranks = new Map<string, number>();
  try {
    const queryVectors = await runtime.embed(queries.map((q) => q.query.trim()));
    queries.forEach((q, i) => {
      const near = index?.nearest(queryVectors[i]!, 10) ?? [];
      ranks.set(q.query, near.findIndex((n) => n.id === q.id));
    });
  } finally {
    await runtime.stop();
  }
  return ranks;
}
