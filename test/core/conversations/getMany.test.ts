import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { Satchel } from '../../../src/core/satchel.ts';
import type { Seed } from '../../../src/core/piecesTypes.ts';
import { tempDir } from '../../support/helpers.ts';
import { TEST_AUTHOR, TEST_WRITE } from '../../support/authors.ts';

const seed = (raw: string): Seed => ({
  type: 'SEEDED_ASSET',
  asset: {
    application: { id: 'test-app', name: 'OPEN_SOURCE', version: '1.0.0', platform: 'LINUX', onboarded: false, privacy: 'OPEN' },
    format: { fragment: { string: { raw }, metadata: { ext: 'ts' } } },
  },
});

test('conversations read many at once render as each read alone, and an asset embeds them so', async () => {
  const dataDir = tempDir();
  const core = Satchel.open({ dataDir });
  try {
    const asset = await core.assets.writes.create(seed('function parseRows(text) { return text.split("\\n"); }'), { author: TEST_AUTHOR });
    const website = core.assets.writes.createWebsite({ url: 'https://example.com/rows', name: 'rows' }, TEST_WRITE);
    const first = core.conversations.create(
      {
        type: 'COPILOT',
        name: 'rows',
        messages: [
          { role: 'USER', fragment: { string: { raw: 'How do I split rows?' } } },
          { role: 'ASSISTANT', fragment: { string: { raw: 'Use split.' } } },
        ],
        assets: { iterable: [{ id: asset.id }] },
        websites: { iterable: [{ id: website.id }] },
        anchors: [{ type: 'FILE', fullpath: '/tmp/rows.ts' }],
      },
      true,
    );
    const second = core.conversations.create({ type: 'COPILOT', name: 'empty', assets: { iterable: [{ id: asset.id }] } }, true);
    const many = core.conversations.getMany([second.id, first.id, 'missing', first.id], true);
    assert.deepEqual([...many.keys()], [second.id, first.id], 'each once, unknown ids left out');
    for (const id of [first.id, second.id]) {
      assert.deepEqual(many.get(id), core.conversations.get(id, true));
      assert.deepEqual(core.conversations.getMany([id], false).get(id), core.conversations.get(id, false));
    }
    assert.equal(many.get(first.id)?.messages.iterable.length, 2);
    assert.equal(many.get(first.id)?.anchors?.iterable.length, 1);
    const embedded = core.assets.get(asset.id).conversations?.iterable ?? [];
    assert.deepEqual(embedded, [core.conversations.get(first.id, true), core.conversations.get(second.id, true)]);
  } finally {
    await core.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
