/**
 * An agent's update of a 60 MB snippet of an older store (one larger than a snippet may be today, grown
 * in SQL) that writes back the placeholders it read, while health is probed every 50 ms with the real
 * secrets detector: refused with the content limit named (agents read only its opening), no value in
 * the reply, nothing written, and the host's event loop never held long. Before, the door read the
 * whole stored text on the host's thread to put the values back, then wrote the record: 0.5–1.5 s held
 * (`large-agent-edit` line).
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { PLANTED, plantedIn } from '../support/fakeSecrets.ts';
import { KEY as key, textAcrossCut } from '../support/textAcrossCut.ts';
import { MAX_CONTENT_CHARS } from '../../src/server/mcp/snippetViews.ts';
import { LIMITS } from '../../src/core/limits.ts';
import { figures } from './support.ts';
import { withHealth } from './healthProbe.ts';
import { callTool } from './mcpCall.ts';
import { largeSnippetHost, type LargeSnippetHost } from './largeSnippetHost.ts';

const CONTENT = 60 * 1024 * 1024;
const closing = `const stripe = "${PLANTED.stripeKey}";\n/*END*/`;
const TEXT = textAcrossCut(CONTENT - MAX_CONTENT_CHARS, closing);
const EDITED = '// edited by an agent\n';
/** What the test reads of get_snippet's answer. */
const Detail = z.object({ content: z.string(), revision: z.string(), length: z.number() });

/** The same bound as the other doors over large snippets (largeResource.test.ts, largeSearch.test.ts). */
const HELD_MS = 100;

let large: LargeSnippetHost;

before(async () => {
  large = await largeSnippetHost('satchel-rel-agent-edit-', TEXT, 'large agent edit');
});

after(() => large?.close());

test("an agent's update of a 60 MB snippet that writes its placeholders back is refused, naming the limit, and health, probed every 50 ms, never waits long", async () => {
  const { host, port, id } = large;
  assert.ok(TEXT.length > LIMITS.contentChars);
  const read = await callTool(port, 'get_snippet', { id });
  const shown = Detail.parse(read.structured);
  assert.ok(shown.content.startsWith('const github = "«secret: GitHub token»";'), shown.content.slice(0, 80));
  const { result, slowest, waited } = await withHealth({ port, host, everyMs: 50 }, () =>
    callTool(port, 'update_snippet', { id, expected_revision: shown.revision, content: EDITED + shown.content }),
  );
  figures('large-agent-edit', { status: result.status, ms: result.ms, health_slowest_ms: slowest, loop_held_ms: waited });
  assert.equal(result.status, 200);
  assert.equal(result.isError, true, result.text);
  const said = result.text ?? '';
  assert.ok(said.includes(`has ${TEXT.length.toLocaleString('en-US')} characters; the limit is ${LIMITS.contentChars.toLocaleString('en-US')}`), said);
  assert.match(said, /agents read only its opening and do not change it/);
  assert.ok(waited < HELD_MS, `health waited ${waited} ms (round trip ${slowest} ms) behind the update`);
  // No value in the refusal, and nothing written: the snippet is as it was.
  assert.deepEqual(plantedIn(said), []);
  assert.ok(!said.includes(key.value.slice(0, 16)));
  const after = Detail.parse((await callTool(port, 'get_snippet', { id })).structured);
  assert.deepEqual({ revision: after.revision, length: after.length }, { revision: shown.revision, length: TEXT.length });
  assert.equal(after.content, shown.content);
});
