/**
 * Replays the search-by-meaning quality figures of `npm run bench -- --only-quality` for several ways
 * of ranking at once, on one set of vectors: the quality corpus in an in-process store, every
 * query's lexical hits (with their stages) captured once, every snippet and query embedded once by
 * the built-in encoder, then each variant ranked with the product's own VectorIndex and
 * fuseRankings. What docs/search.md's table of changes comes from; the shipped variant reproduces
 * the bench's hybrid figure.
 *
 *   node --experimental-strip-types --disable-warning=ExperimentalWarning test/bench/meaning/replay.ts [size]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Satchel } from '../../../src/core/satchel.ts';
import { silentLogger } from '../../../src/core/context.ts';
import { ENCODER_MAX_TOKENS } from '../../../src/core/models/catalog.ts';
import { ENCODER_CENTRE } from '../../../src/core/models/encoderCentre.ts';
import { EncoderProcess } from '../../../src/core/models/encoderProcess.ts';
import { encoderFiles } from '../../../src/core/models/encoderFiles.ts';
import { wordsText } from '../../../src/core/search/embeddedText.ts';
import { fuseRankings, lexicalWeight, type SemanticQuery } from '../../../src/core/search/hybridSearch.ts';
import type { SearchHit } from '../../../src/core/search/searchIndex.ts';
import { VectorIndex } from '../../../src/core/search/vectorIndex.ts';
import { TEST_WRITE } from '../../support/authors.ts';
import { codeSeed } from '../../support/assetFixtures.ts';
import { qualityCorpus } from './qualityCorpus.ts';

interface Captured {
  readonly set: string;
  readonly query: string;
  readonly target: string;
  readonly lexical: readonly SearchHit[];
}

interface Variant {
  readonly name: string;
  /** The reference mean's weight in snippets (Infinity: the reference alone, the previous build). */
  readonly priorWeight: number;
  readonly weight: (query: string) => (stage: SearchHit['stage']) => number;
  readonly candidates: number;
}

const full = () => () => 1;
const allGuessesHalf = () => (stage: SearchHit['stage']) => (stage === 'fuzzy' ? 0.5 : 1);
const REFERENCE_ONLY = 1e12;
const variants: readonly Variant[] = [
  { name: 'previous build: reference centre, every hit at full weight', priorWeight: REFERENCE_ONLY, weight: full, candidates: 10 },
  { name: "library's own mean instead of the reference", priorWeight: ENCODER_CENTRE.weight, weight: full, candidates: 10 },
  { name: "a description's typo guesses at half weight, reference centre", priorWeight: REFERENCE_ONLY, weight: lexicalWeight, candidates: 10 },
  { name: 'both (shipped)', priorWeight: ENCODER_CENTRE.weight, weight: lexicalWeight, candidates: 10 },
  { name: 'every typo guess at half weight', priorWeight: ENCODER_CENTRE.weight, weight: allGuessesHalf, candidates: 10 },
  ...[0, 20, 100, 200, 1000].map((priorWeight) => ({ name: `prior worth ${priorWeight} snippets`, priorWeight, weight: lexicalWeight, candidates: 10 })),
  { name: '20 vector neighbours fused instead of 10', priorWeight: ENCODER_CENTRE.weight, weight: lexicalWeight, candidates: 20 },
];

const size = Number(process.argv[2] ?? 1000);
const quality = qualityCorpus(size);
const dataDir = mkdtempSync(join(tmpdir(), 'satchel-replay-'));
const core = Satchel.open({ dataDir, logger: silentLogger });
const files = encoderFiles();
if (!files) throw new Error('the built-in encoder is not installed (npm ci)');
const encoder = await EncoderProcess.start({ files, maxTokens: ENCODER_MAX_TOKENS, timeoutMs: 120_000 });
try {
  const idOf = new Map<string, string>();
  for (const asset of quality.corpus.assets) {
    idOf.set(asset.key, (await core.assets.writes.create(codeSeed(asset.code, asset.name, { tags: [...asset.tags], ext: asset.language }), TEST_WRITE)).id);
  }
  // Each query's lexical hits, as the search hands them to the fusion.
  const captured: Captured[] = [];
  const sets = { paraphrases: quality.paraphrases, meaning: quality.meaning, lexical: quality.lexical };
  for (const [set, queries] of Object.entries(sets)) {
    for (const { query, target } of queries) {
      let lexical: readonly SearchHit[] = [];
      const capture: SemanticQuery = {
        fuse: (hits) => ((lexical = [...hits]), [...hits]),
        fuseIds: (ranked) => ranked.map((id) => ({ id, score: 0 })),
      };
      core.assets.searches.queryIds(query, { tags: [], limit: 10, semantic: capture });
      captured.push({ set, query, target: idOf.get(target)!, lexical });
    }
  }
  const rows = core.context.database.prepare('SELECT rowid, id FROM assets').all() as Array<{ rowid: number; id: string }>;
  const rowidOf = new Map(rows.map((row) => [row.id, row.rowid]));
  const idOfRowid = new Map([...rowidOf].map(([id, rowid]) => [rowid, id]));

  const started = performance.now();
  const assets = quality.corpus.assets;
  const vectors: Float32Array[] = [];
  for (let at = 0; at < assets.length; at += 16) {
    vectors.push(...(await encoder.embed(assets.slice(at, at + 16).map((a) => wordsText(a.name, a.tags, a.code)))));
  }
  const queryVectors = await encoder.embed(captured.map((q) => q.query.trim()));
  console.log(`${assets.length} snippets and ${captured.length} queries embedded in ${((performance.now() - started) / 1000).toFixed(0)} s`);

  const percent = (n: number, of: number) => `${Math.round((100 * n) / of)}%`;
  for (const variant of variants) {
    const index = new VectorIndex(vectors[0]!.length, { prior: ENCODER_CENTRE.prior, weight: variant.priorWeight });
    assets.forEach((asset, i) => index.set(idOf.get(asset.key)!, vectors[i]!));
    const found = { paraphrases: 0, meaning: 0, lexical: 0 };
    const lost: string[] = [];
    captured.forEach((q, i) => {
      const near = index.nearest(queryVectors[i]!, variant.candidates, 0.25).map((n) => ({ rowid: rowidOf.get(n.id)!, similarity: n.similarity }));
      const top = fuseRankings(q.lexical, near, 5, variant.weight(q.query)).map((hit) => idOfRowid.get(hit.rowid));
      if (top.includes(q.target)) found[q.set as keyof typeof found]++;
      else if (q.set === 'lexical') lost.push(q.query);
    });
    const byMeaning = percent(found.paraphrases + found.meaning, sets.paraphrases.length + sets.meaning.length);
    console.log(
      `${variant.name}: by meaning r@5 ${byMeaning} (paraphrases ${percent(found.paraphrases, sets.paraphrases.length)}, ` +
        `meaning queries ${percent(found.meaning, sets.meaning.length)}); lexical queries ${percent(found.lexical, sets.lexical.length)}` +
        (lost.length > 0 ? `, lost: ${lost.join(', ')}` : ''),
    );
  }
} finally {
  await encoder.stop();
  await core.close();
  rmSync(dataDir, { recursive: true, force: true });
}
