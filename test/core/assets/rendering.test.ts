import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openAssetStore, codeSeed, type AssetStore } from '../../support/assetFixtures.ts';
import type { Conversation } from '../../../src/core/piecesTypes.ts';
import { TEST_AUTHOR } from '../../support/authors.ts';

/** Every request the assets area makes of the conversations area. */
const asked: Array<{ ids: readonly string[]; transferables: boolean }> = [];
let s: AssetStore;
before(() => {
  s = openAssetStore('ts', {
    getMany(ids, transferables) {
      asked.push({ ids, transferables });
      const existing = ids.filter((id) => s.context.records.has('conversation', id));
      return new Map(existing.map((id) => [id, { id, name: `rendered ${id}` } as Conversation]));
    },
  });
});
after(() => s.close());

const link = (asset: string, conversation: string) => s.context.links.link({ kind: 'asset', id: asset }, { kind: 'conversation', id: conversation });

test('a page of assets asks for its linked conversations once, each embedded in every asset linked to it', async () => {
  const a = await s.assets.writes.create(codeSeed('const alpha = 1;', 'alpha'), { author: TEST_AUTHOR });
  const b = await s.assets.writes.create(codeSeed('const beta = 2;', 'beta'), { author: TEST_AUTHOR });
  const c = await s.assets.writes.create(codeSeed('const gamma = 3;', 'gamma'), { author: TEST_AUTHOR });
  for (const id of ['shared', 'own', 'gone']) s.context.records.put('conversation', id, { id });
  link(a.id, 'shared');
  link(a.id, 'own');
  link(b.id, 'shared');
  link(b.id, 'gone');
  s.context.records.delete('conversation', 'gone');

  asked.length = 0;
  const listed = new Map(s.assets.list({ transferables: false }).map((asset) => [asset.id, asset]));
  assert.equal(asked.length, 1, 'one request for the whole page');
  assert.equal(asked[0]!.transferables, false);
  assert.deepEqual([...asked[0]!.ids].sort(), ['own', 'shared'], 'each once');
  const embedded = (id: string) => listed.get(id)?.conversations?.iterable.map((conversation) => conversation.name);
  assert.deepEqual(embedded(a.id), ['rendered shared', 'rendered own'], 'oldest link first');
  assert.deepEqual(embedded(b.id), ['rendered shared'], 'a deleted conversation is left out');
  assert.deepEqual(embedded(c.id), []);
  assert.deepEqual(listed.get(a.id)?.conversations?.indices, { shared: 0, own: 1 });

  asked.length = 0;
  assert.deepEqual(s.assets.get(a.id).conversations?.iterable.map((conversation) => conversation.id), ['shared', 'own']);
  assert.equal(asked.length, 1);
  asked.length = 0;
  s.assets.get(c.id);
  assert.equal(asked.length, 0, 'an asset with no conversations asks for none');
});
