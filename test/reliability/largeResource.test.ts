/**
 * The MCP resource `satchel://assets/{id}` of a 60 MB snippet of an older store (one larger than a
 * snippet may be today, grown in SQL), read while health is probed every 50 ms with the real secrets
 * detector: it answers with the opening of the text, cut where get_snippet cuts it, and never holds
 * the host's event loop long. Before, the resource read the whole text on the host's thread (SQLite
 * taking it out of its document: 300–350 ms held) and sent all of it in one JSON-RPC reply (its
 * serialisation held the loop again).
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { PLANTED, plantedIn } from '../support/fakeSecrets.ts';
import { KEY as key, OPENING as opening, SHOWN_OF_KEY, textAcrossCut } from '../support/textAcrossCut.ts';
import { MAX_CONTENT_CHARS } from '../../src/server/mcp/snippetViews.ts';
import { LIMITS } from '../../src/core/limits.ts';
import { figures, processMemory, resetPeakMemory } from './support.ts';
import { withHealth } from './healthProbe.ts';
import { callTool, readResource } from './mcpCall.ts';
import { largeSnippetHost, type LargeSnippetHost } from './largeSnippetHost.ts';

const CONTENT = 60 * 1024 * 1024;
const closing = `const stripe = "${PLANTED.stripeKey}";\n/*END*/`;
const TEXT = textAcrossCut(CONTENT - MAX_CONTENT_CHARS, closing);

/**
 * How long health may wait behind the read: well above what reading an opening and its recorded
 * findings costs (a few ms), well below the whole-text read it replaced. The same bound as the
 * other doors over large snippets (largeSearch.test.ts).
 */
const HELD_MS = 100;

let large: LargeSnippetHost;

before(async () => {
  large = await largeSnippetHost('satchel-rel-resource-', TEXT, 'large resource');
});

after(() => large?.close());

test('the text is laid out as meant: larger than a snippet may be today, a key across the cut, values at both ends', () => {
  assert.ok(TEXT.length > LIMITS.contentChars);
  const start = TEXT.indexOf(key.value);
  assert.equal(MAX_CONTENT_CHARS - start, SHOWN_OF_KEY);
  assert.ok(TEXT.startsWith(opening) && TEXT.endsWith(closing));
});

test('the MCP resource of a 60 MB snippet answers its opening with every value hidden while health, probed every 50 ms, never waits long', async () => {
  const { host, port, id } = large;
  resetPeakMemory(host.pid);
  const before = processMemory(host.pid).rss_mib;
  const { result, slowest, waited } = await withHealth({ port, host, everyMs: 50 }, () => readResource(port, `satchel://assets/${id}`));
  const grown = processMemory(host.pid).rss_peak_mib - before;
  figures('large-resource', { status: result.status, kib: Math.round(result.bytes / 1024), ms: result.ms, health_slowest_ms: slowest, loop_held_ms: waited, rss_before_mib: before, rss_grown_mib: grown });
  assert.equal(result.status, 200);
  assert.ok(waited < HELD_MS, `health waited ${waited} ms (round trip ${slowest} ms) behind the read`);
  const shown = result.text ?? '';
  assert.ok(shown.startsWith('const github = "«secret: GitHub token»";\nexport const table_entry'), shown.slice(0, 120));
  assert.deepEqual(plantedIn(shown), []);
  assert.ok(!shown.includes(key.value.slice(0, 16)), 'no part of the key that falls before the cut');
  assert.ok(!shown.includes(key.value.slice(SHOWN_OF_KEY - 16, SHOWN_OF_KEY)), "not the key's last characters before the cut either");
  // Cut where get_snippet cuts it, saying so: both doors show the same opening.
  const detail = z.object({ content: z.string(), truncated: z.boolean(), length: z.number() }).parse((await callTool(port, 'get_snippet', { id })).structured);
  assert.equal(detail.truncated, true);
  assert.equal(detail.length, TEXT.length);
  assert.equal(shown, `${detail.content}\n\n(The first ${detail.content.length} of ${TEXT.length} characters; a text over ${LIMITS.contentChars} characters, stored before snippets were limited to that, is cut here at every MCP door.)`);
  assert.ok(result.bytes < 2 * MAX_CONTENT_CHARS, `a ${result.bytes}-byte reply`);
});
