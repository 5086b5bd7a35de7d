/**
 * Text inputs that were quadratic, unbounded or unsafe (issue 18, rows 1, 3, 4, 5, 9 and 10), each
 * sent to a host process of the shipped CLI: the host answers within a bounded time, keeps
 * serving, and the answer is right (a capped title, an intact export block, a clear refusal).
 */
import { test, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { tempDir } from '../support/helpers.ts';
import { HostProcess, figures, jsonErrorCode, raw, type RawReply } from './support.ts';
import { APPLICATION, createAsset } from './writes.ts';

const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json' };
/** Long enough for the old, minutes-long requests to fail rather than hang the suite. */
const TIMEOUT_MS = 30_000;

let host: HostProcess;
let dataDir: string;
let port: number;

// A host per row: a row the host cannot answer must not make the next rows fail too.
beforeEach(async () => {
  dataDir = tempDir('satchel-rel-text-');
  host = new HostProcess(dataDir);
  await host.waitFor('serving');
  port = host.port!;
});
afterEach(async () => {
  await host.kill();
  rmSync(dataDir, { recursive: true, force: true });
});

async function post(path: string, body: unknown): Promise<{ reply: RawReply; ms: number }> {
  const started = performance.now();
  const reply = await raw(port, { method: 'POST', path, headers: JSON_HEADERS, body: JSON.stringify(body), timeoutMs: TIMEOUT_MS });
  return { reply, ms: performance.now() - started };
}

async function get(path: string): Promise<{ reply: RawReply; ms: number }> {
  const started = performance.now();
  const reply = await raw(port, { path, headers: JSON_HEADERS, timeoutMs: TIMEOUT_MS });
  return { reply, ms: performance.now() - started };
}

async function healthy(): Promise<void> {
  assert.ok(host.alive, `the host died: ${host.stderr.slice(-500)}`);
  assert.equal((await raw(port, { path: '/.well-known/health', timeoutMs: 5_000 })).status, 200);
}

async function conversationWith(messages: ReadonlyArray<{ role: string; text: string }>): Promise<string> {
  const { reply } = await post('/conversations/create?transferables=false', { type: 'COPILOT', application: APPLICATION });
  const id = (reply.json as { id: string }).id;
  for (const message of messages) {
    const created = await post('/messages/create?transferables=false', { role: message.role, fragment: { string: { raw: message.text } }, conversation: { id } });
    assert.equal(created.reply.status, 200, created.reply.text.slice(0, 200));
  }
  return id;
}

test('row 1: summarize of a 1 MB assistant message of short sentences answers in seconds, and again', async () => {
  const sentences: string[] = [];
  for (let i = 0, length = 0; length < 1024 * 1024; i++) {
    sentences.push(`Add retry ${i} to loader module ${i % 97} and cache entry ${i % 13}.`);
    length += sentences[i]!.length + 1;
  }
  const id = await conversationWith([
    { role: 'USER', text: 'How do I make the loader reliable?' },
    { role: 'ASSISTANT', text: sentences.join(' ') },
  ]);
  const times: number[] = [];
  for (let i = 0; i < 2; i++) {
    const { reply, ms } = await post(`/conversation/${id}/summarize`, {});
    assert.equal(reply.status, 200, reply.text.slice(0, 300));
    times.push(ms);
    assert.ok(ms < 5_000, `summarize took ${ms.toFixed(0)} ms`);
  }
  await healthy();
  const annotations = await get(`/conversation/${id}?transferables=false`);
  assert.equal(annotations.reply.status, 200);
  figures('text.summarize-1MB', { sentences: sentences.length, firstMs: Math.round(times[0]!), againMs: Math.round(times[1]!) });
});

test('row 3: POST /assets/search with a 512 KB query of distinct words answers in seconds', async () => {
  await createAsset(port, 'function loadUser(id) { return cache.get(id); }');
  const words = Array.from({ length: 120_000 }, (_, i) => `w${i.toString(36)}`).join(' ');
  const query = words.slice(0, 512 * 1024);
  const { reply, ms } = await post('/assets/search?transferables=false', { query });
  assert.equal(reply.status, 200, reply.text.slice(0, 300));
  assert.ok(ms < 3_000, `a ${query.length}-character query took ${ms.toFixed(0)} ms`);
  // The same words repeated are one term each: no slower than the distinct ones.
  const repeated = await post('/assets/search?transferables=false', { query: 'loadUser '.repeat(60_000) });
  assert.equal(repeated.reply.status, 200);
  assert.ok(repeated.ms < 3_000, `a repeated-word query took ${repeated.ms.toFixed(0)} ms`);
  assert.ok((repeated.reply.json as { results: { iterable: unknown[] } }).results.iterable.length >= 1, 'the repeated term still finds its asset');
  await healthy();
  figures('text.search-many-words', { queryChars: query.length, ms: Math.round(ms), repeatedMs: Math.round(repeated.ms) });
});

test('row 4: names and titles from runs that defeated anchored regexes answer at once; titles stay short', async () => {
  const created = await post('/assets/create?transferables=false', {
    type: 'SEEDED_ASSET',
    asset: { application: APPLICATION, format: { fragment: { string: { raw: `${' '.repeat(64 * 1024)}x` } } } },
  });
  assert.equal(created.reply.status, 200, created.reply.text.slice(0, 300));
  assert.ok(created.ms < 3_000, `naming took ${created.ms.toFixed(0)} ms`);
  assert.equal((created.reply.json as { name: string }).name, 'x');

  const dots = await conversationWith([{ role: 'USER', text: `${'.'.repeat(64 * 1024)}x` }]);
  const renamed = await post(`/conversation/${dots}/rename?transferables=false`, {});
  assert.equal(renamed.reply.status, 200, renamed.reply.text.slice(0, 300));
  assert.ok(renamed.ms < 3_000, `rename took ${renamed.ms.toFixed(0)} ms`);

  const word = await conversationWith([{ role: 'USER', text: `How do I fix ${'y'.repeat(200 * 1024)}?` }]);
  const long = await post(`/conversation/${word}/rename?transferables=false`, {});
  assert.equal(long.reply.status, 200);
  const title = (long.reply.json as { name: string }).name;
  assert.ok(title.length <= 80, `a title of ${title.length} characters`);
  await healthy();
  figures('text.anchored-runs', { nameMs: Math.round(created.ms), renameMs: Math.round(renamed.ms), titleChars: title.length });
});

test('row 5: related with hundreds of references to one 1 MB asset, and recommended over large assets, answer in seconds', async () => {
  const big = Array.from({ length: 40_000 }, (_, i) => `const value${i % 500} = compute${i % 37}(input${i % 11});`).join('\n').slice(0, 1024 * 1024);
  const ids: string[] = [];
  for (let i = 0; i < 20; i++) ids.push(await createAsset(port, `// asset ${i}\n${big}`));
  const figuresOut: Record<string, number> = {};
  for (const references of [300, 520]) {
    const { reply, ms } = await post('/assets/related?transferables=false', { iterable: Array.from({ length: references }, () => ({ id: ids[0] })) });
    assert.equal(reply.status, 200, `${references} references: ${reply.status} ${reply.text.slice(0, 300)}`);
    assert.ok(ms < 5_000, `${references} references took ${ms.toFixed(0)} ms`);
    figuresOut[`related${references}Ms`] = Math.round(ms);
  }
  for (const call of ['first', 'second']) {
    const { reply, ms } = await get('/assets/recommended?transferables=false');
    assert.equal(reply.status, 200, reply.text.slice(0, 300));
    assert.ok(ms < 5_000, `${call} bodyless recommended took ${ms.toFixed(0)} ms`);
    figuresOut[`recommended${call}Ms`] = Math.round(ms);
  }
  const repeated = await post('/assets/recommended?transferables=false', {
    assets: { iterable: Array.from({ length: 300 }, () => ({ id: ids[1] })) },
    interactions: { iterable: Array.from({ length: 300 }, () => ({ asset: ids[1], interactions: { touched: true } })) },
  });
  assert.equal(repeated.reply.status, 200, repeated.reply.text.slice(0, 300));
  assert.ok(repeated.ms < 5_000, `300 repeated recommendation references took ${repeated.ms.toFixed(0)} ms`);
  assert.equal((repeated.reply.json as { iterable: Array<{ id: string }> }).iterable[0]?.id, ids[1], 'the asset interacted with comes first');
  await healthy();
  for (const id of ids) await post(`/assets/${id}/delete`, {});
  figures('text.related-recommended', { assets: ids.length, assetChars: big.length, ...figuresOut, repeated300Ms: Math.round(repeated.ms) });
});

test('row 9: ten thousand phrase filters are refused at once; a search form’s handful still works', async () => {
  await createAsset(port, 'The quick brown fox jumps over the lazy dog', 'fox');
  const many = await post('/assets/search?transferables=false', {
    filters: { iterable: Array.from({ length: 10_000 }, (_, i) => ({ phrase: { value: `phrase ${i}` } })) },
  });
  assert.equal(many.reply.status, 400, many.reply.text.slice(0, 300));
  assert.ok(jsonErrorCode(many.reply), 'a JSON error');
  assert.ok(many.ms < 3_000, `refusing took ${many.ms.toFixed(0)} ms`);
  const few = await post('/assets/search?transferables=false', {
    filters: { iterable: Array.from({ length: 64 }, () => ({ phrase: { value: 'QUICK brown' } })) },
  });
  assert.equal(few.reply.status, 200, few.reply.text.slice(0, 300));
  const names = (few.reply.json as { results: { iterable: Array<{ asset: { name: string } }> } }).results.iterable.map((hit) => hit.asset.name);
  assert.ok(names.includes('fox'), `64 filters find the asset: ${JSON.stringify(names)}`);
  await healthy();
  figures('text.phrase-filters', { refusedMs: Math.round(many.ms), sixtyFourMs: Math.round(few.ms) });
});

test('row 10: a Markdown export keeps hostile content inside its code block and escapes a hostile name', async () => {
  const content = [
    'before',
    '```',
    '<img src=x onerror=alert(1)>',
    '~~~~',
    '<img src=y onerror=alert(2)>',
    '`````',
    'after',
  ].join('\n');
  const name = '[click](javascript:alert(1)) <script>alert(2)</script> ![i](javascript:x)\n# injected';
  const id = await createAsset(port, content, name);
  const { reply } = await get(`/asset/${id}/export?export_type=MD`);
  assert.equal(reply.status, 200, reply.text.slice(0, 300));
  const markdown = (reply.json as { raw: { string: { raw: string } } }).raw.string.raw;
  const lines = markdown.split('\n');
  // The name is one heading line with nothing that opens a link, an image or HTML.
  assert.ok(lines[0]!.startsWith('# '), markdown);
  assert.ok(!lines.slice(1).some((line) => line.startsWith('# injected')), `the name broke out of its heading:\n${markdown}`);
  assert.doesNotMatch(lines[0]!, /<script|\]\(javascript:|<img/i, `the name is emitted raw: ${lines[0]}`);
  // The block opens with a backtick fence longer than any run inside, and only its own closing line ends it.
  const open = lines.findIndex((line, i) => i > 0 && /^`{3,}/.test(line));
  const fence = /^`+/.exec(lines[open]!)![0];
  assert.ok(fence.length > 5, `fence ${fence} is not longer than the content's run of 5`);
  const close = lines.findIndex((line, i) => i > open && line.startsWith(fence));
  assert.equal(lines.slice(open + 1, close).join('\n'), content, `the block closes early:\n${markdown}`);
  assert.equal(lines.slice(close + 1).join('').trim(), '', 'nothing of the content lands after the block');
  // HTML export escapes both as before.
  const html = (await get(`/asset/${id}/export?export_type=HTML`)).reply;
  const page = (html.json as { raw: { string: { raw: string } } }).raw.string.raw;
  assert.doesNotMatch(page, /<script>alert|<img src=x/);
});
