/**
 * GET of a revision reads its kept texts inflated on libuv's thread pool (`read`): inflating a
 * 4 Mi-character text on the event loop held it 70–90 ms a read. `read` answers what `get` does.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withCore } from '../../support/helpers.ts';
import { codeSeed } from '../../support/assetFixtures.ts';
import { TEST_WRITE } from '../../support/authors.ts';

test('read gives what get gives, for packed and unpacked texts, descriptions, the current revision and a baseline', () =>
  withCore(async (core) => {
    const text = 'export const line = "a line of code that repeats";\n'.repeat(5000);
    const asset = await core.assets.writes.create(codeSeed(text, 'packed'), TEST_WRITE);
    core.assets.writes.edit(asset.id, { content: { text: `${text}// one more\n` }, description: 'said '.repeat(200) } as never, TEST_WRITE);
    core.assets.writes.edit(asset.id, { content: { text: 'short now' } }, TEST_WRITE);
    const compare = async (): Promise<void> => {
      for (const revision of core.history.list(asset.id).revisions) {
        assert.deepEqual(await core.history.read(asset.id, revision.id), core.history.get(asset.id, revision.id), revision.id);
      }
    };
    await compare();
    await core.history.compactor.compactAll();
    const packed = core.context.database.prepare('SELECT count(*) AS n FROM revision_texts WHERE (encoding & 2) != 0').get() as { n: number };
    assert.ok(packed.n >= 1, 'a kept text was deflated');
    await compare();
    await assert.rejects(core.history.read(asset.id, 'no-such-revision'), { name: 'NotFoundError' });
  }));
