import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openAssetStore, codeSeed, type AssetStore } from '../../support/assetFixtures.ts';
import { AssetSimilarity } from '../../../src/core/assets/similarity.ts';
import { SearchIndex } from '../../../src/core/search/searchIndex.ts';
import { SIMILARITY_CHARS } from '../../../src/core/search/related.ts';
import type { Asset } from '../../../src/core/piecesTypes.ts';
import { TEST_AUTHOR, TEST_WRITE } from '../../support/authors.ts';

let s: AssetStore;
before(() => {
  s = openAssetStore();
});
after(() => s.close());

/** A reference a client sends with its text and no id. */
const reference = (raw: string): Partial<Asset> => ({ formats: { iterable: [{ fragment: { string: { raw } } }] } }) as Partial<Asset>;

test('related: a large first reference does not hide the ones after it', async () => {
  const zebra = await s.assets.writes.create(codeSeed('function renderZebraStripes(table) { return paintZebraRows(table); }', 'zebra'), { author: TEST_AUTHOR });
  await s.assets.writes.create(codeSeed('function drawCircle(ctx, radius) { ctx.arc(0, 0, radius, 0, Math.PI * 2); }', 'circle'), { author: TEST_AUTHOR });
  const line = 'const fillerValue = computeFillerValue(fillerInput);\n';
  const large = line.repeat(Math.ceil((SIMILARITY_CHARS + 4096) / line.length));
  assert.ok(large.length > SIMILARITY_CHARS);
  const small = 'renderZebraStripes(grid);';
  const ids = (refs: Partial<Asset>[]) => s.assets.recommendations.related({ iterable: refs as Asset[] }).iterable.map((asset) => asset.id);
  assert.ok(ids([reference(small)]).includes(zebra.id), 'the small reference alone relates to the zebra asset');
  assert.ok(!ids([reference(large)]).includes(zebra.id), 'the large reference alone does not');
  assert.ok(ids([reference(large), reference(small)]).includes(zebra.id), 'both: the second one still counts');
});

/** An asset similarity of the store with counted reads, told of writes as an indexer is. */
function countedSimilarity(): { similarity: AssetSimilarity; reads: { corpus: number; texts: string[] }; dispose(): void } {
  const reads = { corpus: 0, texts: [] as string[] };
  const index = new SearchIndex(s.context.database);
  const similarity = new AssetSimilarity(s.context, index, {
    ordinaryIds: () => {
      reads.corpus++;
      return s.assets.identifiers();
    },
    texts: (column, keys) => {
      assert.equal(column, 'id', 'a small store is weighed exactly');
      reads.texts.push(...(keys as string[]));
      return (keys as string[]).map((id) => ({ id, text: s.assets.text(id) ?? '' }));
    },
  });
  const registration = s.assets.registerIndexer(similarity);
  return {
    similarity,
    reads,
    dispose() {
      registration.dispose();
      similarity.dispose();
      index.dispose();
    },
  };
}

test('similarity: kept across score bumps, activities and website links; rebuilt for a content change or deletion', async () => {
  const circle = await s.assets.writes.create(codeSeed('function drawEllipse(ctx, rx, ry) { ctx.ellipse(0, 0, rx, ry, 0, 0, Math.PI * 2); }', 'ellipse'), { author: TEST_AUTHOR });
  const { similarity, reads, dispose } = countedSimilarity();
  try {
    const similarTo = (text: string) => similarity.current().similar(text).map((hit) => hit.id);
    assert.ok(!similarTo('parseQuarterlyLedger(file)').includes(circle.id));
    assert.equal(reads.corpus, 1);
    const weighed = reads.texts.length;
    assert.ok(weighed >= 1);

    s.assets.writes.incrementScores(circle.id, { asset: { reuse: true, searched: true } });
    s.assets.writes.recordActivity(circle.id, { asset: { asset: { id: circle.id } } } as never);
    const website = s.assets.writes.createWebsite({ url: 'https://example.com/ellipse', name: 'ellipse' }, TEST_WRITE);
    s.assets.writes.associate(circle.id, 'website', website.id, TEST_WRITE);
    assert.ok(!similarTo('parseQuarterlyLedger(file)').includes(circle.id));
    assert.equal(reads.corpus, 1, 'score bumps, activities and website links leave the corpus as it was');
    assert.equal(reads.texts.length, weighed);

    const stored = s.assets.get(circle.id);
    const format = stored.formats.iterable[0]!;
    s.assets.writes.update({
      ...stored,
      formats: { iterable: [{ ...format, fragment: { ...format.fragment, string: { raw: 'function parseQuarterlyLedger(file) { return readLedgerRows(file); }' } } }] },
    }, TEST_WRITE);
    assert.ok(similarTo('parseQuarterlyLedger(file)').includes(circle.id), 'the new content is compared');
    assert.equal(reads.corpus, 2);
    assert.deepEqual(reads.texts.slice(weighed), [circle.id], 'only the changed asset is counted again');

    s.assets.writes.delete(circle.id, TEST_WRITE);
    assert.ok(!similarTo('parseQuarterlyLedger(file)').includes(circle.id), 'a deleted asset is gone');
  } finally {
    dispose();
  }
});
