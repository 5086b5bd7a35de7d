/**
 * The agents' door for secrets over a snippet larger than a tool shows, with the store's own door and
 * the real detector: a listing's preview and get_snippet's first 256 KiB show each value as its
 * placeholder, a private key that begins before get_snippet's cut and ends after it included, and
 * neither reads the snippet's whole text to say so (the door answers for an opening with the whole
 * text's recorded findings cut there: before, each preview read the whole text, 60 MB at the limit).
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { callToolOk, connectMcp } from '../support/mcpClient.ts';
import { startTestServer, type TestServer } from '../support/helpers.ts';
import { TEST_WRITE } from '../support/authors.ts';
import { recordWholeReads } from '../support/wholeReads.ts';
import { seed } from '../core/sync/vaultSupport.ts';
import { plantedIn } from '../support/fakeSecrets.ts';
import { KEY as key, SHOWN_OF_KEY, textAcrossCut } from '../support/textAcrossCut.ts';
import { MAX_CONTENT_CHARS } from '../../src/server/mcp/snippetViews.ts';
import { HEAD_CHARS } from '../../src/core/assets/assetHeads.ts';

const TEXT = textAcrossCut(2 * HEAD_CHARS);

let t: TestServer;
let client: Client;
let id = '';
/** Reads of a whole text made while the tools ran. */
const wholeReads: string[] = [];
/** Texts longer than a head scanned again by a door (the store's findings of them were recorded already). */
const wholeScans: number[] = [];

before(async () => {
  t = await startTestServer();
  id = (await t.core.assets.writes.create(seed(TEXT, { name: 'large table', ext: 'ts' }), TEST_WRITE)).id;
  // The scan a write leaves pending is done first: what is measured is the door, not the first scan.
  await t.core.assets.secrets.findingsNow(id);
  const secrets = t.core.assets.secrets;
  const textsOf = secrets.textsOf.bind(secrets);
  secrets.textsOf = (asset) => {
    wholeReads.push(`secrets.textsOf(${asset})`);
    return textsOf(asset);
  };
  recordWholeReads(t.core, wholeReads);
  const scanTexts = secrets.scanTexts.bind(secrets);
  secrets.scanTexts = (texts) => {
    if (texts.code.length > HEAD_CHARS) wholeScans.push(texts.code.length);
    return scanTexts(texts);
  };
  client = await connectMcp(t.url, 'satchel-large-secrets-test');
});
after(async () => {
  await client.close();
  await t.close();
});

async function call(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  const result = await callToolOk(client, name, args);
  return result;
}

test('the text is laid out as meant: a token in the preview, a key across the cut, more than a head', () => {
  assert.ok(TEXT.length > 2 * HEAD_CHARS);
  const start = TEXT.indexOf(key.value);
  assert.ok(start < MAX_CONTENT_CHARS && start + key.value.length > MAX_CONTENT_CHARS, 'the key spans the cut');
  assert.equal(MAX_CONTENT_CHARS - start, SHOWN_OF_KEY);
});

test('search_snippets and list_recent_snippets preview the snippet with its token hidden, without reading its whole text', async () => {
  for (const [name, args] of [
    ['list_recent_snippets', { limit: 5 }],
    ['search_snippets', { query: 'table_entry' }],
    ['search_snippets', { language: 'ts' }],
  ] as const) {
    const result = await call(name, args);
    const snippets = (result.structuredContent as { snippets: Array<{ id: string; preview: string }> }).snippets;
    assert.deepEqual(snippets.map((s) => s.id), [id], name);
    assert.match(snippets[0]!.preview, /^const github = "«secret: GitHub token»";\nexport const table_entry/, name);
    assert.deepEqual(plantedIn(JSON.stringify(result)), [], name);
  }
  assert.deepEqual(wholeReads, []);
});

test('get_snippet shows the first 256 KiB with the key that begins before the cut hidden as far as it shows, without reading the whole text', async () => {
  const result = await call('get_snippet', { id });
  const detail = result.structuredContent as { content: string; truncated: boolean; length: number };
  assert.equal(detail.truncated, true);
  assert.equal(detail.length, TEXT.length);
  assert.ok(detail.content.startsWith('const github = "«secret: GitHub token»";\n'));
  assert.deepEqual(plantedIn(JSON.stringify(result)), []);
  const shown = JSON.stringify(result);
  assert.ok(!shown.includes(key.value.slice(0, 16)), 'no part of the key that falls before the cut');
  assert.ok(!shown.includes(key.value.slice(SHOWN_OF_KEY - 16, SHOWN_OF_KEY)), 'not the key\'s last characters before the cut either');
  assert.match(detail.content, /«secret: [^»]+»$/, 'the content ends in the key\'s placeholder');
  assert.deepEqual(wholeReads, []);
});

test('the snippet\'s resource sends all of its text with every value hidden, reading it once and scanning none of it again', async () => {
  wholeReads.length = 0;
  const read = await client.readResource({ uri: `satchel://assets/${id}` });
  const sent = read.contents[0];
  assert.ok(sent !== undefined && 'text' in sent && typeof sent.text === 'string');
  const shown = sent.text;
  assert.ok(shown.startsWith('const github = "«secret: GitHub token»";\nexport const table_entry'));
  assert.deepEqual(plantedIn(shown), []);
  assert.ok(!shown.includes(key.value.slice(0, 16)) && !shown.includes(key.value.slice(-16)), 'no part of the key');
  // All of it: what follows the key as stored, to its last character.
  assert.equal([...shown.matchAll(/«secret: [^»]+»/g)].length, 2);
  assert.ok(shown.endsWith(TEXT.slice(TEXT.indexOf(key.value) + key.value.length + 200)));
  // Sent once, read once: before, the content was parsed out of the whole document, then its 60 MB
  // (here 0.8 MB) scanned again because the door's texts lacked the snippet's name.
  assert.ok(wholeReads.length <= 1, wholeReads.join(', '));
  assert.deepEqual(wholeScans, []);
});
