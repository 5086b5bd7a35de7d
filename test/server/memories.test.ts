/**
 * GET /satchel/memories through the typed client: the memories, newest first, each with its cited
 * files checked when listed (what the Memories node shows as "may be stale"); a bad limit is a 400.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { request, tempDir, withClient } from '../support/helpers.ts';
import { authorOf } from '../../src/core/history/authors.ts';

test('the memories are listed newest first with their staleness checked at each listing; snippets are not memories', async () => {
  await withClient(async (client, server) => {
    const dir = tempDir('satchel-memories-route-');
    const cited = join(dir, 'notes.md');
    writeFileSync(cited, 'first');
    const core = server.core;
    const older = await core.memories.save({ title: 'older', summary: 'about the notes', files: [cited] }, authorOf('mcp', 'Cursor'));
    const newer = await core.memories.save({ title: 'newer', summary: 'no files' }, authorOf('mcp', 'Cursor'));
    let { memories } = await client.memories.list();
    assert.deepEqual(memories.map((memory) => [memory.title, memory.stale]), [['newer', false], ['older', false]]);
    assert.equal(memories[1]!.id, older.asset);
    assert.equal(memories[0]!.id, newer.asset);
    rmSync(cited);
    ({ memories } = await client.memories.list());
    assert.equal(memories[1]!.stale, true);
    assert.deepEqual(memories[1]!.files.map((file) => file.state), ['gone']);
    const bad = await request(server.url, 'GET', '/satchel/memories?limit=lots');
    assert.equal(bad.status, 400);
  });
});
