import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openAssetStore, codeSeed, type AssetStore } from '../../support/assetFixtures.ts';
import { distinctIdentifiers } from '../../../src/core/search/tokens.ts';
import type { Asset } from '../../../src/core/piecesTypes.ts';
import { TEST_AUTHOR, TEST_WRITE } from '../../support/authors.ts';

let s: AssetStore;
before(() => {
  s = openAssetStore();
});
after(() => s.close());

/** The row's keywords column: the tags, then the code's distinct identifiers. */
const keywordsOf = (id: string): string =>
  (s.context.database.prepare('SELECT keywords FROM assets WHERE id = ?').get(id) as { keywords: string }).keywords;
const found = (query: string): string[] =>
  s.assets.searches.search({ query }, { transferables: false, pseudo: false }).iterable.map((hit) => hit.identifier);

const withText = (asset: Asset, raw: string): Asset => {
  const format = asset.formats.iterable[0]!;
  return { ...asset, formats: { iterable: [{ ...format, fragment: { ...format.fragment, string: { raw } } }] } };
};

test('the keywords and the identifier index follow every write that changes them', async () => {
  const first = 'function quokkaLoader(src) { return quokkaParse(src); }';
  const asset = await s.assets.writes.create(codeSeed(first, 'first', { tags: ['marsupial', 'marsupial', 'island'] }), { author: TEST_AUTHOR });
  assert.equal(keywordsOf(asset.id), `marsupial island\n${distinctIdentifiers(first).join(' ')}`, 'create: tags once each, then identifiers');
  assert.deepEqual(found('quokkaParse'), [asset.id]);

  const second = 'function wombatDigger(hole) { return wombatBurrow(hole); }';
  s.assets.writes.update(withText(s.assets.get(asset.id), second), TEST_WRITE);
  assert.equal(keywordsOf(asset.id), `marsupial island\n${distinctIdentifiers(second).join(' ')}`, 'content update');
  assert.deepEqual(found('quokkaParse'), []);
  assert.deepEqual(found('wombatDig'), [asset.id]);

  s.assets.writes.update({ ...s.assets.get(asset.id, { transferables: false }), name: 'burrows', formats: { iterable: [] } }, TEST_WRITE);
  assert.equal(keywordsOf(asset.id), `marsupial island\n${distinctIdentifiers(second).join(' ')}`, 'rename keeps them');
  assert.deepEqual(found('wombatDig'), [asset.id]);

  const tag = s.assets.writes.createTag({ text: 'nocturnal' }, TEST_WRITE);
  s.assets.writes.associate(asset.id, 'tag', tag.id, TEST_WRITE);
  assert.equal(keywordsOf(asset.id), `marsupial island nocturnal\n${distinctIdentifiers(second).join(' ')}`, 'a tag link');
  assert.deepEqual(found('nocturnal'), [asset.id]);
  s.assets.writes.incrementScores(asset.id, { asset: { reuse: true } });
  assert.equal(keywordsOf(asset.id), `marsupial island nocturnal\n${distinctIdentifiers(second).join(' ')}`, 'a score bump keeps them');
});
