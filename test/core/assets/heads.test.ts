/**
 * A large asset keeps the opening of its text and its document without content beside it
 * (assetHeads.ts), in step with every write: summaries, replies without content, get_snippet's
 * opening, phrase checks and similarity read those instead of parsing the whole document.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HEAD_CHARS } from '../../../src/core/assets/assetHeads.ts';
import { SUMMARY_CHARS } from '../../../src/core/assets/summaries.ts';
import { codeSeed, openAssetStore } from '../../support/assetFixtures.ts';
import { TEST_WRITE } from '../../support/authors.ts';

const LINE = 'const paddingValue = compute(alpha, beta, gamma); // filler line\n';

function heads(store: ReturnType<typeof openAssetStore>): Array<{ rowid: number; chars: number; head: number; bare: string }> {
  return store.context.database.db.prepare('SELECT rowid, chars, length(head) AS head, bare FROM asset_heads ORDER BY rowid').all() as never;
}

test('a large asset has a head in step with its writes; a small one has none', async () => {
  const store = openAssetStore();
  try {
    const text = `export function headProbe() {}\n${LINE.repeat(Math.ceil((HEAD_CHARS * 2) / LINE.length))}// "the far end"\n`;
    const large = await store.assets.writes.create(codeSeed(text, 'large one', { tags: ['big'] }), TEST_WRITE);
    const small = await store.assets.writes.create(codeSeed('export const tiny = 1;', 'small one'), TEST_WRITE);
    let rows = heads(store);
    assert.equal(rows.length, 1, 'one head, for the large asset');
    assert.equal(rows[0]!.chars, text.length);
    assert.equal(rows[0]!.head, HEAD_CHARS);
    assert.ok(!rows[0]!.bare.includes('paddingValue'), 'the document kept beside it has no content');

    // Without transferables the large asset is read from its head: no content, the same facts.
    const bare = store.assets.get(large.id, { transferables: false });
    assert.equal(bare.name, 'large one');
    assert.ok(!JSON.stringify(bare).includes('paddingValue'));
    assert.deepEqual(bare.tags?.iterable.map((tag) => tag.text), ['big']);
    const listed = store.assets.list({ transferables: false });
    assert.deepEqual(listed.map((asset) => asset.id).sort(), [large.id, small.id].sort());
    assert.ok(!JSON.stringify(listed).includes('paddingValue'));

    const [summary, smallSummary] = store.assets.summaries([large.id, small.id]);
    assert.equal(summary?.text.length, SUMMARY_CHARS);
    assert.ok(summary?.text.startsWith('export function headProbe()'));
    assert.equal(summary?.chars, text.length);
    assert.deepEqual(summary?.tags, ['big']);
    assert.equal(smallSummary?.text, 'export const tiny = 1;');
    const opening = store.assets.opening(large.id, 1000);
    assert.deepEqual([opening.text.length, opening.chars, opening.binary], [1000, text.length, false]);

    // A phrase past the head (but in what the index holds) is still found, checked on the document.
    const found = store.assets.searches.search({ query: '"the far end"' }, { transferables: false, pseudo: false }).iterable.map((hit) => hit.identifier);
    assert.deepEqual(found, [large.id]);

    // Shrunk below a head's size: the head goes; grown: it comes back; deleted: gone.
    store.assets.writes.update({ id: large.id, name: 'renamed' }, TEST_WRITE);
    assert.equal(heads(store).length, 1, 'a rename keeps the head');
    const format = large.formats.iterable[0]!;
    store.assets.writes.updateFormatValue({ id: format.id, fragment: { string: { raw: 'export const now = "small";' } } }, false, TEST_WRITE);
    assert.equal(heads(store).length, 0, 'no head once the text is small');
    store.assets.writes.updateFormatValue({ id: format.id, fragment: { string: { raw: text } } }, false, TEST_WRITE);
    rows = heads(store);
    assert.equal(rows.length, 1, 'a head again once the text is large');
    store.assets.writes.delete(large.id, TEST_WRITE);
    assert.equal(heads(store).length, 0, 'no head for a deleted asset');
  } finally {
    store.close();
  }
});

test('the text a large asset scans for secrets is taken out of its document by SQLite, the same as the whole document gives', async () => {
  const store = openAssetStore();
  try {
    const text = `#!/bin/sh\n${LINE.repeat(Math.ceil((HEAD_CHARS * 2) / LINE.length))}echo "the far end"\n`;
    const large = await store.assets.writes.create(codeSeed(text, 'large one'), TEST_WRITE);
    const small = await store.assets.writes.create(codeSeed('export const tiny = 1;', 'small one'), TEST_WRITE);
    assert.equal(heads(store).length, 1);
    assert.deepEqual(store.assets.secrets.textsOf(large.id), { code: text, name: 'large one' });
    assert.deepEqual(store.assets.secrets.textsOf(small.id), { code: 'export const tiny = 1;', name: 'small one' });
    assert.equal(store.assets.secrets.textsOf('no-such-id'), undefined);
  } finally {
    store.close();
  }
});
