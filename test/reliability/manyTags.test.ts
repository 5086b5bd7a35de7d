/**
 * A store holding a snippet with 200k tags (a massCode file did this before tags per snippet had a
 * limit; issue 26 item 3): GET /tags is sent a page at a time with each tag's assets (8.4 s of
 * health waiting before), and the snippet's own replies carry its first EMBEDDED_LINKS tags,
 * built in one statement (GET /asset/{id} took 3.7 s; with table statistics from when the store
 * was small, its join scanned every tag once per tag and never answered). The store's statistics
 * here are those of the small store, as after an import into a store opened before.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Satchel } from '../../src/core/satchel.ts';
import { EMBEDDED_LINKS } from '../../src/core/assets/assetRendering.ts';
import { tempDir } from '../support/helpers.ts';
import { HostProcess, figures, raw } from './support.ts';
import { withHealth } from './healthProbe.ts';
import { callTool } from './mcpCall.ts';
import { seed } from './writes.ts';
import { TEST_WRITE } from '../support/authors.ts';

const TAGS = 200_000;
let dataDir = '';
let host: HostProcess;
let port = 0;
let tagged = '';
let plain = '';

before(async () => {
  dataDir = tempDir('satchel-rel-tags-');
  const core = Satchel.open({ dataDir });
  tagged = (await core.assets.writes.create(seed('export function manyTags() { return 1; }', 'many tags') as never, TEST_WRITE)).id;
  plain = (await core.assets.writes.create(seed('export function fewTags() { return 2; }', 'few tags') as never, TEST_WRITE)).id;
  const template = core.assets.writes.createTag({ text: 'tag template' }, TEST_WRITE);
  await core.close();
  const db = new DatabaseSync(join(dataDir, 'satchel.db'));
  try {
    const started = performance.now();
    // Tags `tag 0` … made and linked in that order (oldest first), both directions of each link.
    db.exec('BEGIN');
    db.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ? - 1)
       INSERT INTO records (kind, id, created, updated, data, lookup)
       SELECT 'tag', printf('00000000-0000-4000-8000-%012d', i), ?2, ?2,
              json_set(?3, '$.id', printf('00000000-0000-4000-8000-%012d', i), '$.text', 'tag ' || i), 'tag ' || i FROM n`,
    ).run(TAGS, new Date().toISOString(), JSON.stringify(template));
    db.prepare(
      `INSERT INTO links (a_kind, a_id, b_kind, b_id, created)
       SELECT 'asset', ?1, 'tag', id, created FROM records WHERE kind = 'tag' AND lookup LIKE 'tag %' AND lookup != 'tag template' ORDER BY rowid`,
    ).run(tagged);
    db.prepare(
      `INSERT INTO links (a_kind, a_id, b_kind, b_id, created)
       SELECT 'tag', id, 'asset', ?1, created FROM records WHERE kind = 'tag' AND lookup LIKE 'tag %' AND lookup != 'tag template' ORDER BY rowid`,
    ).run(tagged);
    db.exec('COMMIT');
    figures('many-tags-fixture', { tags: TAGS, ms: Math.round(performance.now() - started) });
  } finally {
    db.close();
  }
  host = new HostProcess(dataDir);
  port = (await host.waitFor('serving', 60_000)).port!;
});

after(async () => {
  await host?.kill();
  rmSync(dataDir, { recursive: true, force: true });
});

interface TimedReply {
  status: number;
  json: unknown;
  text: string;
  bytes: number;
  ms: number;
}

async function timed(path: string): Promise<TimedReply> {
  const started = performance.now();
  const reply = await raw(port, { path, timeoutMs: 60_000 });
  return { status: reply.status, json: reply.json, text: reply.text, bytes: reply.body.length, ms: Math.round(performance.now() - started) };
}

test("the snippet's replies carry its first tags, oldest first, built within a second while health answers within 1 s", async () => {
  const slow: string[] = [];
  for (const path of [`/asset/${tagged}`, `/asset/${tagged}?transferables=false`, `/assets/${tagged}`, '/assets?transferables=false']) {
    const { result, slowest, waited } = await withHealth({ port, host }, () => timed(path));
    figures('many-tags-asset', { path: path.replace(tagged, '{id}'), status: result.status, kib: Math.round(result.bytes / 1024), ms: result.ms, health_slowest_ms: slowest, loop_held_ms: waited });
    assert.equal(result.status, 200, `${path}: ${result.text.slice(0, 200)}`);
    const document = result.json as { id?: string; tags?: { iterable: Array<{ text: string }> }; iterable?: Array<{ id: string; tags: { iterable: Array<{ text: string }> } }> };
    const asset = document.iterable ? document.iterable.find((a) => a.id === tagged) : document;
    const texts = asset?.tags?.iterable.map((tag) => tag.text) ?? [];
    assert.equal(texts.length, EMBEDDED_LINKS, `${path}: ${texts.length} tags`);
    assert.deepEqual(texts.slice(0, 3), ['tag 0', 'tag 1', 'tag 2'], `${path}: the oldest tags first`);
    if (document.iterable) assert.deepEqual(document.iterable.find((a) => a.id === plain)?.tags.iterable, [], 'the other snippet has no tags');
    if (result.ms >= 1000) slow.push(`${path} answered after ${result.ms} ms`);
    if (waited >= 1000) slow.push(`health waited ${waited} ms (round trip ${slowest} ms) behind ${path}`);
  }
  assert.deepEqual(slow, []);
});

test('MCP lists the snippet with its first tags and says it has more, while health answers within 1 s', async () => {
  const { result, slowest, waited } = await withHealth({ port, host }, () => callTool(port, 'list_recent_snippets', { limit: 5 }));
  figures('many-tags-mcp', { tool: 'list_recent_snippets', status: result.status, bytes: result.bytes, ms: result.ms, health_slowest_ms: slowest, loop_held_ms: waited });
  const listed = z.object({ snippets: z.array(z.object({ id: z.string(), tags: z.array(z.string()), moreTags: z.boolean().optional() })) }).parse(result.structured);
  const snippet = listed.snippets.find((s) => s.id === tagged);
  assert.ok(snippet, result.text);
  assert.deepEqual(snippet.tags.slice(0, 2), ['tag 0', 'tag 1']);
  assert.ok(snippet.tags.length <= 32 && snippet.moreTags === true, `${snippet.tags.length} tags, moreTags ${snippet.moreTags}`);
  assert.ok(result.bytes < 16 * 1024, `a ${result.bytes}-byte reply`);
  assert.ok(waited < 1000, `health waited ${waited} ms (round trip ${slowest} ms)`);
});

test('GET /tags lists every tag with its snippet, a page at a time, while health answers within 1 s', async () => {
  const { result, slowest, waited } = await withHealth({ port, host }, () => timed('/tags'));
  figures('many-tags-list', { path: '/tags', status: result.status, mib: Math.round(result.bytes / 1024 / 1024), ms: result.ms, health_slowest_ms: slowest, loop_held_ms: waited });
  assert.equal(result.status, 200, result.text.slice(0, 200));
  const tags = (result.json as { iterable: Array<{ id: string; text: string; assets: { iterable: Array<{ id: string }> } }> }).iterable;
  assert.equal(tags.length, TAGS + 1, 'every tag once, the template too');
  assert.equal(tags[0]!.text, 'tag template', 'oldest first');
  assert.equal(tags[1]!.text, 'tag 0');
  assert.ok(tags.slice(1).every((tag) => tag.assets.iterable.length === 1 && tag.assets.iterable[0]!.id === tagged), "each tag lists its snippet");
  assert.ok(waited < 1000, `health waited ${waited} ms (round trip ${slowest} ms) behind GET /tags`);
});
