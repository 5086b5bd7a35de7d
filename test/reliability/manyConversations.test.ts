/**
 * A store of 23,000 conversations of four messages each (issue 26): GET /conversations held health
 * for 3.7 s (with `transferables=false`, which still parsed every message, 5.2 s), GET /messages for
 * 2.1 s and MCP `list_conversations {limit: 5}` for 2.7 s, each reading every conversation whole.
 * Snapshots are now streamed a page at a time, listings without content read message heads only,
 * and a list of five reads five conversations.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { rmSync } from 'node:fs';
import { Satchel } from '../../src/core/satchel.ts';
import { Database } from '../../src/core/store/database.ts';
import { tempDir } from '../support/helpers.ts';
import { HostProcess, figures } from './support.ts';
import { withHealth } from './healthProbe.ts';
import { callTool } from './mcpCall.ts';
import { fetchScanned, type ScanOptions } from './replyScan.ts';
import { manyConversations } from './conversationStores.ts';

const CONVERSATIONS = 23_000;
const MESSAGES = 4;
const CHARS = 400;
/** What every message's text starts with (see conversationStores.messageText). */
const TEXT = '"TEXT The retry loop';
let dataDir = '';
let host: HostProcess;
let port = 0;

before(async () => {
  dataDir = tempDir('satchel-rel-convs-');
  await manyConversations(dataDir, CONVERSATIONS, MESSAGES, CHARS);
  host = new HostProcess(dataDir);
  port = (await host.waitFor('serving')).port!;
});

after(async () => {
  await host?.kill();
  rmSync(dataDir, { recursive: true, force: true });
});

async function scanned(path: string, options: ScanOptions) {
  const { result, slowest, waited } = await withHealth({ port, host }, () => fetchScanned(port, path, options));
  figures('many-conversations', { path, status: result.status, mib: Math.round(result.bytes / 1024 / 1024), ms: result.ms, health_slowest_ms: slowest, loop_held_ms: waited });
  assert.equal(result.status, 200, `${path}: ${result.tail}`);
  return { reply: result, slowest, waited };
}

test('GET /conversations streams every conversation with its message text while health answers within 1 s', async () => {
  // Counted as it comes, not kept: holding 87 MB here would make this process's pauses count as the host's.
  const { reply, slowest, waited } = await scanned('/conversations', { pattern: new RegExp(`${TEXT}|"type":"COPILOT"`, 'g') });
  assert.equal(reply.counts.get('"type":"COPILOT"'), CONVERSATIONS, 'every conversation once');
  assert.equal(reply.counts.get(TEXT) ?? 0, CONVERSATIONS * MESSAGES, 'every message with its text');
  assert.match(reply.tail, /"c-00022999":22999\}\}$/, 'the conversations are indexed, the last one last');
  assert.ok(waited < 1000, `health waited ${waited} ms (round trip ${slowest} ms) behind GET /conversations`);
});

test('GET /conversations?transferables=false lists every conversation and message without text while health answers within 1 s', async () => {
  const { reply, slowest, waited } = await scanned('/conversations?transferables=false', { pattern: new RegExp(`${TEXT}|"role":"USER"`, 'g'), keep: true });
  assert.equal(reply.counts.get(TEXT) ?? 0, 0, 'no message text in a reply without transferables');
  assert.equal(reply.counts.get('"role":"USER"'), (CONVERSATIONS * MESSAGES) / 2, 'every message is referenced');
  const document = JSON.parse(reply.text!) as { iterable: unknown[] };
  assert.equal(document.iterable.length, CONVERSATIONS);
  assert.ok(waited < 1000, `health waited ${waited} ms (round trip ${slowest} ms) behind GET /conversations?transferables=false`);
});

test('a snapshot without transferables reads no message text at all', async () => {
  // In-process, so what is read can be watched: no statement may read the table holding the text.
  const core = Satchel.open({ dataDir });
  const seen = new Set<string>();
  const prepare = Database.prototype.prepare;
  Database.prototype.prepare = function (this: Database, sql: string) {
    seen.add(sql);
    return prepare.call(this, sql);
  };
  let listed = 0;
  try {
    for (const page of core.conversations.reads.snapshot(false).pages()) {
      for (const conversation of page) listed += conversation.messages.collect().iterable.length;
    }
  } finally {
    Database.prototype.prepare = prepare;
    await core.close();
  }
  const textReads = [...seen].filter((sql) => /\bconversation_messages\b/.test(sql));
  figures('many-conversations-no-text', { messages: listed, statements: seen.size, text_reads: textReads.length });
  assert.equal(listed, CONVERSATIONS * MESSAGES);
  assert.deepEqual(textReads, []);
});

test('GET /messages streams every message while health answers within 1 s', async () => {
  const { reply, slowest, waited } = await scanned('/messages', { pattern: new RegExp(TEXT, 'g') });
  assert.equal(reply.counts.get(TEXT) ?? 0, CONVERSATIONS * MESSAGES);
  assert.match(reply.tail, /\}\}$/);
  assert.ok(waited < 1000, `health waited ${waited} ms (round trip ${slowest} ms) behind GET /messages`);
});

test('MCP list_conversations {limit: 5} answers the five updated last, reading only them', async () => {
  const { result, slowest, waited } = await withHealth({ port, host }, () => callTool(port, 'list_conversations', { limit: 5 }));
  figures('many-conversations-mcp-list', { ms: result.ms, health_slowest_ms: slowest, loop_held_ms: waited });
  assert.equal(result.status, 200);
  assert.equal(result.isError, false, result.text?.slice(0, 300));
  const { conversations: listed } = z.object({ conversations: z.array(z.object({ id: z.string(), messages: z.number() })) }).parse(result.structured);
  assert.deepEqual(
    listed.map((conversation) => [conversation.id, conversation.messages]),
    [22_999, 22_998, 22_997, 22_996, 22_995].map((n) => [`c-${String(n).padStart(8, '0')}`, MESSAGES]),
  );
  assert.ok(waited < 1000, `health waited ${waited} ms (round trip ${slowest} ms) behind list_conversations`);
});
