/**
 * What revisions cost: the time of an asset update (content edits and renames, each a durable
 * transaction) with its revision against the same update in a store whose writes keep none (the
 * assets area given a tracker that records nothing), measured in this process on 1,000 corpus
 * assets; and how the store grows over N content updates of one asset and of many, before and
 * after compaction applies the retention policy (docs/history.md).
 */
import { StoreContext } from '../../../src/core/context.ts';
import { allMigrations } from '../../../src/core/satchel.ts';
import { RevisionCompactor } from '../../../src/core/history/compaction.ts';
import { AssetService, type AssetHistory } from '../../../src/core/assets/assetService.ts';
import { RevisionLog } from '../../../src/core/history/revisionLog.ts';
import { authorOf, type WriteOptions } from '../../../src/core/history/authors.ts';
import type { RevisionTracking } from '../../../src/core/history/revisionTracker.ts';
import type { LanguageClassifier } from '../../../src/core/classify/languageClassifier.ts';
import type { Asset, ClassificationSpecific, Seed } from '../../../src/core/piecesTypes.ts';
import { generateCorpus, type BenchAsset } from '../corpus.ts';
import { removeDir, tempDataDir } from '../processes.ts';
import { median } from '../stats.ts';

export interface UpdateCost {
  /** Wall time per durable update, ms (median of the runs). */
  readonly withMs: number;
  readonly withoutMs: number;
  /** CPU time per update, µs: the revision's own work, without the wait for the disk. */
  readonly withCpuUs: number;
  readonly withoutCpuUs: number;
}

export interface Growth {
  readonly updates: number;
  readonly assets: number;
  /** Bytes the store's used pages grew by over the updates, with revisions; and after compaction. */
  readonly grew: number;
  readonly grewCompacted: number;
  /** The same updates in a store whose writes keep no revision (activities and the search index grow too). */
  readonly grewWithout: number;
  readonly revisions: number;
  readonly revisionsCompacted: number;
  /** Bytes of the contents the updates wrote (what keeping every content whole would add). */
  readonly contentBytes: number;
}

export interface HistoryFigure {
  readonly assets: number;
  readonly updates: number;
  readonly edit: UpdateCost;
  readonly rename: UpdateCost;
  readonly oneAsset: Growth;
  readonly manyAssets: Growth;
}

const BY: WriteOptions = { author: authorOf('cli', 'bench') };
const classifier = { classify: async () => ({ specific: 'ts', confidence: 1, source: 'model' }) } as unknown as LanguageClassifier;

/** A tracker that keeps no revision: the baseline a write with its revision is compared with. */
const untracked: RevisionTracking = {
  created: () => '',
  begin: () => ({ head: { id: '' }, finish: () => '', retire: () => {} }),
  restored: () => '',
};

function seedOf(asset: BenchAsset): Seed {
  return {
    type: 'SEEDED_ASSET',
    asset: {
      format: { fragment: { string: { raw: asset.code }, metadata: { ext: asset.language as ClassificationSpecific } } },
      metadata: { name: asset.name, tags: asset.tags.map((text) => ({ text })) },
    },
  };
}

/** Bytes of the store's pages in use (the WAL checkpointed first). */
function usedBytes(context: StoreContext): number {
  const db = context.database.db;
  db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  const read = (pragma: string): number => Number(Object.values(db.prepare(`PRAGMA ${pragma}`).get() ?? {})[0]);
  return (read('page_count') - read('freelist_count')) * read('page_size');
}

/** A content edit of the asset's text: one line changed, as an editor's save makes. */
function edited(code: string, n: number): string {
  return `${code}// edit ${n}\n`;
}

async function timeUpdates(history: (context: StoreContext) => AssetHistory, corpus: readonly BenchAsset[], updates: number, runs: number): Promise<{ edit: [number, number]; rename: [number, number] }> {
  const editMs: number[] = [];
  const editCpu: number[] = [];
  const renameMs: number[] = [];
  const renameCpu: number[] = [];
  for (let run = 0; run < runs; run++) {
    const dir = tempDataDir('satchel-bench-history-');
    const context = StoreContext.open(dir, allMigrations);
    const assets = new AssetService(context, classifier, history(context), []);
    try {
      const made: Asset[] = [];
      for (const asset of corpus) made.push(await assets.writes.create(seedOf(asset), { author: BY.author }));
      const measure = (write: (i: number) => void, ms: number[], cpu: number[]): void => {
        const started = performance.now();
        const cpuStarted = process.cpuUsage();
        for (let i = 0; i < updates; i++) write(i);
        const used = process.cpuUsage(cpuStarted);
        ms.push((performance.now() - started) / updates);
        cpu.push((used.user + used.system) / updates);
      };
      measure((i) => {
        const asset = made[(i * 7919) % made.length]!;
        const format = asset.formats.iterable[0]!;
        assets.writes.update({ id: asset.id, formats: { iterable: [{ id: format.id, fragment: { string: { raw: edited(corpus[(i * 7919) % made.length]!.code, i) } } }] } }, BY);
      }, editMs, editCpu);
      measure((i) => assets.writes.update({ id: made[(i * 104729) % made.length]!.id, name: `renamed ${i}` }, BY), renameMs, renameCpu);
    } finally {
      assets.dispose();
      context.dispose();
      removeDir(dir);
    }
  }
  return { edit: [median(editMs), median(editCpu)], rename: [median(renameMs), median(renameCpu)] };
}

async function growth(corpus: readonly BenchAsset[], assetCount: number, updates: number, tracked: boolean): Promise<Omit<Growth, 'grewWithout'> & { readonly grewWithout?: number }> {
  const dir = tempDataDir('satchel-bench-growth-');
  const context = StoreContext.open(dir, allMigrations);
  const log = new RevisionLog(context.database);
  // Compaction runs when asked here, not on its timers: the figure reports before and after it.
  const compactor = new RevisionCompactor(context.database, log, { delayMs: 3_600_000, firstPassMs: 3_600_000 });
  const assets = new AssetService(context, classifier, tracked ? { log } : { tracking: untracked }, []);
  const revisions = (): number => (context.database.prepare('SELECT count(*) AS n FROM revisions').get() as { n: number }).n;
  try {
    const made: Asset[] = [];
    for (const asset of corpus.slice(0, assetCount)) made.push(await assets.writes.create(seedOf(asset), { author: BY.author }));
    const before = usedBytes(context);
    let contentBytes = 0;
    for (let i = 0; i < updates; i++) {
      const n = i % made.length;
      const text = edited(corpus[n]!.code, i);
      contentBytes += Buffer.byteLength(text);
      assets.writes.update({ id: made[n]!.id, formats: { iterable: [{ id: made[n]!.formats.iterable[0]!.id, fragment: { string: { raw: text } } }] } }, BY);
    }
    const grew = usedBytes(context) - before;
    const counted = revisions();
    // The policy applied and the kept contents deflated (what the background work does a moment after the writes).
    await compactor.compactAll();
    return { updates, assets: made.length, grew, grewCompacted: usedBytes(context) - before, revisions: counted, revisionsCompacted: revisions(), contentBytes };
  } finally {
    compactor.dispose();
    assets.dispose();
    context.dispose();
    removeDir(dir);
  }
}

async function growthFigure(corpus: readonly BenchAsset[], assetCount: number, updates: number): Promise<Growth> {
  const withRevisions = await growth(corpus, assetCount, updates, true);
  const without = await growth(corpus, assetCount, updates, false);
  return { ...withRevisions, grewWithout: without.grew };
}

export async function measureHistory(options: { assets: number; updates: number; growthUpdates: number; runs: number }): Promise<HistoryFigure> {
  const corpus = generateCorpus(options.assets, 4242).assets;
  const tracked = await timeUpdates((context) => ({ log: new RevisionLog(context.database) }), corpus, options.updates, options.runs);
  const bare = await timeUpdates(() => ({ tracking: untracked }), corpus, options.updates, options.runs);
  const cost = (kind: 'edit' | 'rename'): UpdateCost => ({ withMs: tracked[kind][0], withoutMs: bare[kind][0], withCpuUs: tracked[kind][1], withoutCpuUs: bare[kind][1] });
  return {
    assets: options.assets,
    updates: options.updates,
    edit: cost('edit'),
    rename: cost('rename'),
    oneAsset: await growthFigure(corpus, 1, options.growthUpdates),
    manyAssets: await growthFigure(corpus, options.assets, options.growthUpdates),
  };
}
