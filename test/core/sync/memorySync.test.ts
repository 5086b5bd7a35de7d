/**
 * Memories sync: a memory on A arrives on B as a memory, with its project, cited files (hash and
 * commit as written) and links, in the vault's snippet.md as plain keys; a snippet stays a snippet.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { withMachines } from './syncSupport.ts';
import { recordsOf } from './vaultSupport.ts';
import { tempDir } from '../../support/helpers.ts';
import { authorOf } from '../../../src/core/history/authors.ts';
import { assetFiles, parseAsset } from '../../../src/core/sync/vaultFormat.ts';

test('a memory syncs as a memory: its facts in snippet.md, read back whole on the other machine', { timeout: 120_000 }, async () => {
  const project = tempDir('satchel-memory-sync-');
  writeFileSync(join(project, 'cache.ts'), 'export const ttl = 1;\n');
  await withMachines(async ({ a, b }) => {
    const saved = await a.memories.save(
      { title: 'Cache TTL decision', summary: 'One hour, because of product updates.', project, files: ['cache.ts'], links: ['https://example.com/pr/1', 'JIRA-7'] },
      authorOf('mcp', 'Cursor'),
    );
    const id = saved.asset!;
    const record = recordsOf(a).read(id)!;
    const meta = assetFiles(record).find((file) => file.name === 'snippet.md')!.data.toString('utf8');
    assert.match(meta, /^kind: "memory"$/m);
    assert.match(meta, new RegExp(`^project: ${JSON.stringify(project).replace(/[\\/]/g, '\\$&')}$`, 'm'));
    assert.match(meta, /^links:\n {2}- "https:\/\/example.com\/pr\/1"\n {2}- "JIRA-7"$/m);
    assert.deepEqual(parseAsset(id, assetFiles(record)).memory, record.memory, 'the vault files read back to the same facts');

    await a.sync.sync();
    await b.sync.sync();
    assert.ok(b.memories.isMemory(id));
    assert.deepEqual(b.memories.facts.get(id), a.memories.facts.get(id));
    assert.equal(b.memories.facts.get(id)!.files[0]!.path, join(project, 'cache.ts'));
    assert.match(b.memories.facts.get(id)!.files[0]!.hash!, /^[0-9a-f]{64}$/);
    // B recalls it against the same files (here the same machine's): not stale.
    const recalled = await b.memories.recall([id]);
    assert.equal(recalled.get(id)!.staleness.stale, false);
    // A second sync has nothing to do.
    const again = [await a.sync.sync(), await b.sync.sync()];
    assert.deepEqual(again.map((s) => [s.sent, s.received]), [[0, 0], [0, 0]]);
  });
});
