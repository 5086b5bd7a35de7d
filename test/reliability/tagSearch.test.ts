/**
 * Searches by tag alone over 10k snippets carrying the tag (issue 26 item 3): the snippets are
 * listed from the tag's links without reading a document, an agent's `limit` is honoured before
 * any is read, and GET /assets/search sends them a page at a time. Before, every search read every
 * tagged document with its content in one statement, whatever the limit: 200 concurrent ones
 * stalled health 5–7 s.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Satchel } from '../../src/core/satchel.ts';
import { tempDir } from '../support/helpers.ts';
import { HostProcess, figures, percentile } from './support.ts';
import { withHealth } from './healthProbe.ts';
import { callTool } from './mcpCall.ts';
import { fetchCounted } from './countedReply.ts';
import { seed } from './writes.ts';
import { copyAsset } from './grownRows.ts';
import { TEST_WRITE } from '../support/authors.ts';

const SNIPPETS = 10_000;
let dataDir = '';
let host: HostProcess;
let port = 0;
let newest = '';

before(async () => {
  dataDir = tempDir('satchel-rel-tagsearch-');
  const core = Satchel.open({ dataDir });
  const first = await core.assets.writes.create(seed('export function taggedProbe() { return 0; }', 'probe 0') as never, TEST_WRITE);
  core.assets.writes.createTag({ text: 'probe', asset: first.id }, TEST_WRITE);
  await core.close();
  const db = new DatabaseSync(join(dataDir, 'satchel.db'));
  try {
    // Copies of the first snippet, each a second older than the one before, made in SQL (10k
    // creates would spend most of this test indexing what it does not search).
    db.exec('BEGIN');
    copyAsset(db, first.id, SNIPPETS - 1);
    const tag = db.prepare("SELECT id FROM records WHERE kind = 'tag' AND lookup = 'probe'").get() as { id: string };
    db.prepare(`INSERT INTO links (a_kind, a_id, b_kind, b_id, created) SELECT 'asset', id, 'tag', ?, created FROM assets WHERE id != ?`).run(tag.id, first.id);
    db.prepare(`INSERT INTO links (a_kind, a_id, b_kind, b_id, created) SELECT 'tag', ?, 'asset', id, created FROM assets WHERE id != ?`).run(tag.id, first.id);
    db.exec('COMMIT');
    // Statistics of the store as it is now, as after a restart (stale ones are manyTags.test.ts's).
    db.exec('ANALYZE');
  } finally {
    db.close();
  }
  newest = first.id;
  host = new HostProcess(dataDir);
  port = (await host.waitFor('serving', 60_000)).port!;
});

after(async () => {
  await host?.kill();
  rmSync(dataDir, { recursive: true, force: true });
});

/** What the test reads of search_snippets' answer. */
const Listed = z.object({ snippets: z.array(z.object({ id: z.string() })) });

/**
 * Two hundred concurrent MCP calls hold health for seconds whatever they do (each builds its own
 * server: 3.8–4.7 s on an empty store on a shared 2-core machine), so a search by tag is measured
 * against the cheapest call there is, listing one snippet, on the same store, and may take up to
 * twice its time (the runs vary that much). Before, each read all 10k tagged documents: the calls
 * did not answer within two minutes.
 */
test('200 concurrent agent searches by tag with limit 1 answer the newest snippet, holding health no longer than 200 calls listing one snippet', async () => {
  const concurrently = (name: string, args: Record<string, unknown>) =>
    withHealth({ port, host }, () => Promise.all(Array.from({ length: 200 }, () => callTool(port, name, args, 120_000))));
  const baseline = await concurrently('list_recent_snippets', { limit: 1 });
  const tagged = await concurrently('search_snippets', { tags: ['probe'], limit: 1 });
  for (const [what, { result, slowest, waited }] of [['list_recent_snippets', baseline], ['search_snippets by tag', tagged]] as const) {
    const times = result.map((reply) => reply.ms);
    figures('tag-search-mcp', { tool: what, concurrent: 200, snippets: SNIPPETS, p50_ms: percentile(times, 50), max_ms: Math.max(...times), health_slowest_ms: slowest, loop_held_ms: waited });
  }
  for (const reply of tagged.result) {
    assert.equal(reply.status, 200);
    assert.deepEqual(Listed.parse(reply.structured).snippets.map((s) => s.id), [newest], reply.text);
  }
  const allowed = 2 * baseline.waited + 1000;
  assert.ok(tagged.waited < allowed, `the host held health ${tagged.waited} ms (round trip ${tagged.slowest} ms) behind 200 searches by tag, ${baseline.waited} ms (${baseline.slowest} ms) behind 200 listings of one snippet`);
});

test('20 concurrent GET /assets/search by tag send every tagged snippet, a page at a time, while health answers within 1 s', async () => {
  const path = '/assets/search?searchable_tags=probe&transferables=false';
  const { result, slowest, waited } = await withHealth({ port, host }, () => Promise.all(Array.from({ length: 20 }, () => fetchCounted(port, path, /"identifier":/g))));
  const times = result.map((reply) => reply.ms);
  figures('tag-search-rest', { concurrent: 20, snippets: SNIPPETS, mib_each: Math.round(result[0]!.bytes / 1024 / 1024), p50_ms: percentile(times, 50), max_ms: Math.max(...times), health_slowest_ms: slowest, loop_held_ms: waited });
  for (const reply of result) {
    assert.equal(reply.status, 200);
    assert.equal(reply.counts.get('"identifier":'), SNIPPETS, 'every tagged snippet once');
    assert.match(reply.tail, /"exact":10000\}$/);
  }
  assert.ok(waited < 1000, `health waited ${waited} ms (round trip ${slowest} ms) behind 20 searches by tag`);
});
