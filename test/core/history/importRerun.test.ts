/**
 * Importing a file again after one of its snippets changed updates the asset the first import made
 * (a revision by the import, nothing lost) instead of adding a near-copy; what the user changed in
 * Satchel meanwhile (tags, language) is kept. In the import process and in this one alike.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withCore } from '../../support/helpers.ts';
import { TEST_WRITE } from '../../support/authors.ts';
import type { Satchel } from '../../../src/core/satchel.ts';

const file = (body: string, description: string) => JSON.stringify({
  Greet: { prefix: 'greet', body, description },
  Farewell: { prefix: 'bye', body: 'print("farewell, unchanged")' },
});

async function rerun(core: Satchel, name: string): Promise<void> {
  const first = await core.imports.import([{ name, text: () => file('print("hello")', 'Says hello') }]);
  assert.deepEqual([first.imported, first.updated, first.duplicates], [2, 0, 0]);
  const greet = core.assets.list().find((asset) => asset.name === 'Greet')!;
  const before = core.history.current(greet.id);
  // The user works on it in Satchel: a tag of their own, another language.
  core.assets.writes.edit(greet.id, { tags: ['greet', 'mine'], language: 'rb' }, TEST_WRITE);

  const second = await core.imports.import([{ name, text: () => file('print("hello, world")', 'Says hello to the world') }]);
  assert.deepEqual([second.imported, second.updated, second.duplicates], [0, 1, 1]);
  assert.equal(core.assets.list().length, 2, 'no near-copy beside the asset');
  const now = core.assets.get(greet.id);
  assert.equal(now.formats.iterable[0]?.fragment?.string?.raw, 'print("hello, world")');
  assert.equal(now.formats.iterable[0]?.classification.specific, 'rb', 'the file names no language: the user\'s stays');
  assert.deepEqual(now.tags?.iterable.map((tag) => tag.text).sort(), ['greet', 'mine']);

  const list = core.history.list(greet.id);
  assert.deepEqual(list.revisions.map((r) => [r.author.kind, r.author.name]), [['import', 'greetings.code-snippets'], ['cli', 'test'], ['import', 'greetings.code-snippets']]);
  assert.deepEqual(list.revisions[0]!.changes, ['content', 'description']);
  const original = core.history.get(greet.id, before);
  assert.deepEqual([original.content.text, original.description], ['print("hello")', 'Says hello']);
  assert.equal(core.history.get(greet.id, list.current).description, 'Says hello to the world');
  // The search index follows the update.
  assert.ok(core.assets.searches.search({ query: 'world' }, { transferables: false, pseudo: false }).iterable.some((hit) => hit.asset?.id === greet.id));

  // Deleted since: the next import makes it again.
  core.assets.writes.delete(greet.id, TEST_WRITE);
  const third = await core.imports.import([{ name, text: () => file('print("hello again")', 'Says hello') }]);
  assert.deepEqual([third.imported, third.updated], [1, 0]);
}

test('a re-import that changes a snippet updates its asset in the import process', async () => {
  await withCore((core) => rerun(core, '/home/me/.config/Code/User/snippets/greetings.code-snippets'));
});

test('a re-import that changes a snippet updates its asset in this process', async () => {
  await withCore((core) => rerun(core, 'greetings.code-snippets'), { importWorker: false });
});
