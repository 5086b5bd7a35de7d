/**
 * One conversation of 288 MB, 288 messages of 1 MiB (issue 26): a question into it froze the host
 * for 1.3 s with no model loaded, and MCP `read_conversation` never answered; renaming or
 * summarizing it read every message whole. A question now reads only the newest messages its prompt
 * can hold (none without a model), a read answers a page of previews with where the next starts,
 * titles and summaries read an even sample of openings, and the conversation itself is streamed a
 * page of messages at a time.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { rmSync } from 'node:fs';
import { tempDir } from '../support/helpers.ts';
import { HostProcess, figures } from './support.ts';
import { withHealth } from './healthProbe.ts';
import { callTool } from './mcpCall.ts';
import { fetchScanned } from './replyScan.ts';
import { clientFrame, openRawSocket } from './rawSocket.ts';
import { largeConversation } from './conversationStores.ts';

const MESSAGES = 288;
const CHARS = 1024 * 1024;
let dataDir = '';
let host: HostProcess;
let port = 0;
let conversation = '';

before(async () => {
  dataDir = tempDir('satchel-rel-bigconv-');
  conversation = (await largeConversation(dataDir, MESSAGES, CHARS)).id;
  host = new HostProcess(dataDir);
  port = (await host.waitFor('serving')).port!;
});

after(async () => {
  await host?.kill();
  rmSync(dataDir, { recursive: true, force: true });
});

/** What the test reads of read_conversation's answer. */
const Page = z.object({
  total: z.number(),
  offset: z.number(),
  next_offset: z.number().optional(),
  messages: z.array(z.object({ text: z.string(), chars: z.number(), truncated: z.boolean() })),
});

test('a question into the conversation is answered while health answers within 1 s', async () => {
  const socket = await openRawSocket(port, '/qgpt/stream');
  const frame = clientFrame(JSON.stringify({ question: { query: 'What should I try next?' }, conversation, request: 'next' }));
  const { result, slowest, waited } = await withHealth({ port, host }, async () => {
    const started = performance.now();
    await socket.write(frame);
    const messages = await socket.waitFor(2, 60_000);
    return { messages, ms: Math.round(performance.now() - started) };
  });
  socket.destroy();
  figures('large-conversation-question', { ms: result.ms, health_slowest_ms: slowest, loop_held_ms: waited });
  const statuses = result.messages.map((text) => (JSON.parse(text) as { status: string; conversation: string }));
  assert.deepEqual(statuses.map((frame) => frame.status), ['IN-PROGRESS', 'COMPLETED']);
  assert.equal(statuses[1]!.conversation, conversation);
  assert.ok(waited < 1000, `health waited ${waited} ms (round trip ${slowest} ms) behind the question`);
});

test('MCP read_conversation answers a page of previews and where the next page starts', async () => {
  const { result, slowest, waited } = await withHealth({ port, host }, () => callTool(port, 'read_conversation', { id: conversation }));
  figures('large-conversation-mcp-read', { status: result.status, kib: Math.round(result.bytes / 1024), health_slowest_ms: slowest, loop_held_ms: waited });
  assert.equal(result.status, 200);
  const page = Page.parse(result.structured);
  // The question of the test before is a message too.
  assert.ok(page.total >= MESSAGES, `${page.total} messages`);
  assert.equal(page.offset, 0);
  assert.ok(page.messages.length > 0 && page.next_offset === page.messages.length, `next_offset ${page.next_offset} after ${page.messages.length}`);
  assert.ok(page.messages.every((message) => message.truncated && message.chars === CHARS && message.text.length < 10_000));
  assert.match(page.messages[0]!.text, /^BEGIN-0 /);
  assert.ok(result.bytes < 1024 * 1024, `the reply holds ${result.bytes} bytes`);
  assert.ok(waited < 1000, `health waited ${waited} ms (round trip ${slowest} ms) behind read_conversation`);

  const next = await callTool(port, 'read_conversation', { id: conversation, offset: page.next_offset, limit: 1 });
  assert.match(Page.parse(next.structured).messages[0]!.text, new RegExp(`^BEGIN-${page.next_offset} `));
});

test('GET /conversation/{id} without transferables lists every message without reading text', async () => {
  const { result, slowest, waited } = await withHealth({ port, host }, () => fetchScanned(port, `/conversation/${conversation}?transferables=false`, { pattern: /BEGIN-/g, keep: true }));
  figures('large-conversation-get', { transferables: 'false', kib: Math.round(result.bytes / 1024), ms: result.ms, health_slowest_ms: slowest, loop_held_ms: waited });
  assert.equal(result.status, 200);
  assert.equal(result.counts.get('BEGIN-') ?? 0, 0, 'no message text');
  const document = JSON.parse(result.text!) as { messages: { iterable: unknown[] } };
  assert.ok(document.messages.iterable.length >= MESSAGES);
  assert.ok(waited < 1000, `health waited ${waited} ms (round trip ${slowest} ms)`);
});

test('GET /conversation/{id} streams all 288 MB of messages while health answers within 1 s', async () => {
  const { result, slowest, waited } = await withHealth({ port, host }, () => fetchScanned(port, `/conversation/${conversation}`, { pattern: /"BEGIN-(\d+) /g }));
  figures('large-conversation-get', { transferables: 'true', mib: Math.round(result.bytes / 1024 / 1024), ms: result.ms, health_slowest_ms: slowest, loop_held_ms: waited });
  assert.equal(result.status, 200);
  assert.ok(result.bytes > MESSAGES * CHARS, `${result.bytes} bytes`);
  const missing = Array.from({ length: MESSAGES }, (_, i) => String(i)).filter((i) => result.counts.get(i) !== 1);
  assert.deepEqual(missing, [], 'each message once, with its text');
  assert.ok(waited < 1000, `health waited ${waited} ms (round trip ${slowest} ms) behind the conversation`);
});

test('rename and summarize read a sample of the conversation while health answers within 1 s', async () => {
  for (const [path, body] of [
    [`/conversation/${conversation}/rename?transferables=false`, undefined],
    [`/conversation/${conversation}/summarize`, '{}'],
  ] as const) {
    const { result, slowest, waited } = await withHealth({ port, host }, () => fetchScanned(port, path, { method: 'POST', ...(body ? { body } : {}), keep: true }));
    figures('large-conversation-write', { path: path.replace(conversation, '{id}'), status: result.status, ms: result.ms, health_slowest_ms: slowest, loop_held_ms: waited });
    assert.equal(result.status, 200, result.text?.slice(0, 300));
    assert.ok(waited < 1000, `health waited ${waited} ms (round trip ${slowest} ms) behind POST ${path}`);
  }
});
