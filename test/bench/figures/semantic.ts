/**
 * Semantic recall latency at scale, against the host already loaded with the corpus (quality with
 * a real model is meaningQuality.ts):
 *
 * - latency: hybrid search over HTTP with a generated 384-dimension GGUF (random weights: real
 *   model compute for the query vector, meaningless vectors) and synthetic stored vectors, one per
 *   asset, written into the store before the model loads. Each is a noisy copy of one query's
 *   vector, so every query has close neighbours and the whole hybrid path runs (top-k, scope
 *   check, fusion). Compared with lexical search in the same run, plus the in-process brute-force
 *   scan alone, the host's memory for the vectors and health latency while they load.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { BenchClient } from '../client.ts';
import { memoryOf } from '../processes.ts';
import { search } from '../satchelApi.ts';
import { latency, medianOfRuns, type Latency } from '../stats.ts';
import { mulberry32 } from '../corpus.ts';
import { tinyGguf } from '../../support/gguf.ts';
import { LlamaProcess } from '../../../src/core/models/llamaProcess.ts';
import { VectorIndex } from '../../../src/core/search/vectorIndex.ts';

const DIMENSION = 384;

export interface SemanticLatencyFigure {
  readonly dimension: number;
  readonly vectors: number;
  readonly lexical: Latency;
  /** Each query's first search: its vector is made by the model. */
  readonly hybrid: Latency;
  /** Later searches of the same queries: their vectors are reused. */
  readonly hybridRepeated: Latency;
  /** The brute-force scan alone (VectorIndex.nearest), in the benchmark's process. */
  readonly scan: Latency;
  /** From the load request to every stored vector in memory. */
  readonly loadMs: number;
  readonly healthMaxMs: number;
  readonly rssDeltaBytes: number;
}

export interface SemanticPlan {
  readonly runs: number;
  /** How long loading the stored vectors may take. */
  readonly backfillBudgetMs: number;
}

export async function measureSemanticLatency(
  client: BenchClient,
  hostPid: number,
  dataDir: string,
  queries: readonly string[],
  plan: SemanticPlan,
): Promise<SemanticLatencyFigure> {
  const dir = mkdtempSync(join(tmpdir(), 'satchel-bench-embed-'));
  const modelPath = join(dir, 'tiny-embed-384.gguf');
  writeFileSync(modelPath, tinyGguf({ embd: DIMENSION, seed: 384, name: 'tiny-embed-384' }));
  let modelId: string | undefined;
  try {
    const queryVectors = await embedAll(modelPath, queries);
    modelId = await importEmbeddingModel(client, modelPath);
    const scanIndex = writeSyntheticVectors(join(dataDir, 'satchel.db'), modelId, queryVectors);

    const timed = async (): Promise<number[][]> => {
      const runs: number[][] = [];
      for (let run = 0; run < Math.max(2, plan.runs); run++) {
        const times: number[] = [];
        for (const query of queries) times.push((await search(client, query)).ms);
        runs.push(times);
      }
      return runs;
    };
    for (const query of queries.slice(0, 5)) await search(client, query);
    const lexical = medianOfRuns(await timed());

    const rssBefore = memoryOf(hostPid).rss;
    const started = performance.now();
    let healthMaxMs = 0;
    let loading = true;
    const health = (async () => {
      while (loading) {
        const t = performance.now();
        await client.ok('GET', '/.well-known/health');
        healthMaxMs = Math.max(healthMaxMs, performance.now() - t);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    try {
      await client.ok('POST', `/model/${encodeURIComponent(modelId)}/load`);
      await untilReady(client, plan.backfillBudgetMs);
    } finally {
      loading = false;
      await health;
    }
    const loadMs = performance.now() - started;
    const status = (await client.ok('GET', '/search/semantic')).body as { vectors: number };
    if (status.vectors !== scanIndex.size) throw new Error(`the host holds ${status.vectors} vectors, ${scanIndex.size} were stored`);
    // The host keeps the vectors of recent queries: the first pass makes each query's vector (what
    // a new query costs), later passes reuse it (a repeated query, another page of results).
    for (const query of ['warm up the model', 'and its runtime']) await search(client, query);
    const runs = await timed();
    const hybrid = latency(runs[0]!);
    const hybridRepeated = medianOfRuns(runs.slice(1));
    const rssDeltaBytes = memoryOf(hostPid).rss - rssBefore;

    const scanTimes: number[] = [];
    for (let run = 0; run < plan.runs; run++) {
      for (const vector of queryVectors) {
        const t = performance.now();
        scanIndex.nearest(vector, 20, 0.25);
        scanTimes.push(performance.now() - t);
      }
    }
    return { dimension: DIMENSION, vectors: scanIndex.size, lexical, hybrid, hybridRepeated, scan: latency(scanTimes), loadMs, healthMaxMs, rssDeltaBytes };
  } finally {
    if (modelId) await client.request('POST', `/model/${encodeURIComponent(modelId)}/unload`).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}

async function importEmbeddingModel(client: BenchClient, path: string): Promise<string> {
  const reply = await client.ok('POST', '/models/import', { path, usage: 'TEXT_EMBEDDING', name: basename(path) });
  const id = (reply.body as { id?: unknown }).id;
  if (typeof id !== 'string') throw new Error(`model import answered without an id: ${reply.text.slice(0, 200)}`);
  return id;
}

/** Waits until every snippet has a vector of the loaded model (GET /search/semantic says `ready`). */
export async function untilReady(client: BenchClient, budgetMs: number): Promise<void> {
  const end = performance.now() + budgetMs;
  let last = 0;
  for (;;) {
    const status = (await client.ok('GET', '/search/semantic')).body as { state: string; done: number; total: number };
    if (status.state === 'ready') return;
    if (status.state === 'failed' || status.state === 'off') throw new Error(`semantic recall is ${status.state}`);
    if (performance.now() > end) throw new Error(`back-fill over its ${budgetMs / 1000} s budget at ${status.done} of ${status.total}`);
    if (performance.now() - last > 15_000 && status.total > 0) {
      process.stdout.write(`${status.done}/${status.total} `);
      last = performance.now();
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The queries' vectors by the same model and runtime the host uses. */
async function embedAll(modelPath: string, queries: readonly string[]): Promise<Float32Array[]> {
  const runtime = await LlamaProcess.start({ modelPath, role: 'embedding', contextSize: 512, threads: 1, timeoutMs: 120_000 });
  try {
    const out: Float32Array[] = [];
    for (const query of queries) out.push(Float32Array.from(await runtime.embed(query.trim())));
    return out;
  } finally {
    await runtime.stop();
  }
}

/**
 * One vector per stored asset, written as the host writes them (current, of `model`), and the
 * same vectors in an index in this process for the scan-alone figure.
 */
function writeSyntheticVectors(databasePath: string, model: string, centres: readonly Float32Array[]): VectorIndex {
  const random = mulberry32(0x5e3a);
  const noise = 1 / Math.sqrt(DIMENSION);
  const index = new VectorIndex(DIMENSION);
  const db = new DatabaseSync(databasePath, { timeout: 10_000 });
  try {
    const ids = (db.prepare('SELECT id FROM assets ORDER BY rowid').all() as Array<{ id: string }>).map((row) => row.id);
    const put = db.prepare(
      `INSERT INTO asset_vectors (asset_id, model, dimension, source, stale, vector) VALUES (?, ?, ?, 'synthetic', 0, ?)
       ON CONFLICT (asset_id) DO UPDATE SET model = excluded.model, dimension = excluded.dimension, source = excluded.source, stale = 0, vector = excluded.vector`,
    );
    db.exec('BEGIN');
    ids.forEach((id, i) => {
      const centre = centres[i % centres.length]!;
      const norm = Math.hypot(...centre) || 1;
      const vector = new Float32Array(DIMENSION);
      for (let d = 0; d < DIMENSION; d++) vector[d] = centre[d]! / norm + noise * (random() + random() + random() - 1.5) * 2;
      put.run(id, model, DIMENSION, new Uint8Array(vector.buffer));
      index.set(id, vector);
    });
    db.exec('COMMIT');
  } finally {
    db.close();
  }
  return index;
}
