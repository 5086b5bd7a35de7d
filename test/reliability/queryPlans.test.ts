/**
 * Query plans: every statement the store prepares during a workload that touches every kind of
 * record (assets with tags and websites, conversations with messages and associations, deletes of
 * each) is explained, and none may scan a table that grows with the store (whole-table counts
 * aside). A scan of `links` made deleting a conversation of 1,000 messages take 85 s at 1M links
 * while health waited.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Database } from '../../src/core/store/database.ts';
import { request, startTestServer } from '../support/helpers.ts';
import { APPLICATION, seed } from './writes.ts';
import { figures } from './support.ts';

/** Tables whose size grows with the user's data. */
const GROWING = ['links', 'records', 'assets', 'asset_formats', 'asset_labels', 'conversation_messages', 'application_usage_events', 'connector_fp_docs'];

/**
 * Statements that must read every row, once in a store's life or once per upgrade, never in a request:
 * noting every snippet for the secrets detector to read again when it changed (SecretRecords.readAgainFor,
 * run as the store opens; a fresh store notes none).
 */
const ONCE = new Set(['INSERT OR IGNORE INTO secret_pending (asset_id) SELECT id FROM assets ORDER BY rowid']);

test('no statement of a workload over every record kind scans a growing table (links deletes included)', async () => {
  const seen = new Set<string>();
  const original = Database.prototype.prepare;
  Database.prototype.prepare = function (this: Database, sql: string) {
    seen.add(sql);
    return original.call(this, sql);
  };
  const server = await startTestServer();
  try {
    const ok = async (method: string, path: string, body?: unknown): Promise<any> => {
      const reply = await request(server.url, method, path, body === undefined ? {} : { body });
      assert.ok(reply.status < 300, `${method} ${path} answered ${reply.status} ${reply.text.slice(0, 200)}`);
      return reply.json;
    };
    const assets: string[] = [];
    for (let i = 0; i < 3; i++) assets.push((await ok('POST', '/assets/create?transferables=false', seed(`const a${i} = ${i};`))).id);
    const tag = await ok('POST', '/tags/create', { text: 'plan tag', asset: assets[0] });
    const website = await ok('POST', '/websites/create', { url: 'https://example.com/plan', name: 'plan', asset: assets[0] });
    await ok('POST', `/asset/${assets[1]}/tags/associate/${tag.id}`);
    await ok('POST', `/asset/${assets[1]}/websites/associate/${website.id}`);
    const conversation = await ok('POST', '/conversations/create', { name: 'plan', type: 'COPILOT' });
    const messages: string[] = [];
    for (let i = 0; i < 3; i++) {
      messages.push(
        (await ok('POST', '/messages/create', {
          conversation: { id: conversation.id },
          role: 'USER',
          fragment: { string: { raw: `message ${i}` } },
        })).id,
      );
    }
    await ok('POST', `/conversation/${conversation.id}/assets/associate/${assets[1]}`);
    await ok('POST', `/conversation/${conversation.id}/websites/associate/${website.id}`);
    await ok('POST', `/conversation/${conversation.id}/grounding/messages/associate/${messages[0]}`);
    // Conversations read a page at a time: snapshots, messages, previews, a question's context.
    for (const path of ['/conversations', '/conversations?transferables=false', `/conversation/${conversation.id}`, `/conversation/${conversation.id}/messages`, '/messages']) {
      await ok('GET', path);
    }
    await ok('POST', `/conversation/${conversation.id}/rename`);
    await ok('POST', `/conversation/${conversation.id}/summarize`, {});
    for (const [name, args] of [['list_conversations', { limit: 5 }], ['read_conversation', { id: conversation.id, offset: 1 }]] as const) {
      const reply = await request(server.url, 'POST', '/mcp', {
        headers: { accept: 'application/json, text/event-stream' },
        body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } },
      });
      assert.equal(reply.status, 200, `${name}: ${reply.text.slice(0, 200)}`);
    }
    await ok('POST', '/assets/search?transferables=false', { query: 'const' });
    await ok('GET', `/asset/${assets[1]}`);
    await ok('GET', '/assets?transferables=false');
    // The Assets tree's groups and pages (an editor holds what it shows): counts and a page of each kind.
    for (const by of ['language', 'tag']) await ok('GET', `/satchel/assets/groups?by=${by}`);
    const firstPage = await ok('GET', '/satchel/assets/groups/page?by=language&key=ts&limit=1');
    assert.ok(firstPage.next, 'a second page');
    await ok('GET', `/satchel/assets/groups/page?by=language&key=ts&limit=1&after=${encodeURIComponent(firstPage.next)}`);
    await ok('GET', `/satchel/assets/groups/page?by=tag&key=${tag.id}&after=a&limit=2`);
    await ok('GET', '/satchel/assets/groups/page?by=tag&key=&limit=2');
    await ok('POST', `/messages/${messages[1]}/delete`);
    await ok('POST', `/asset/${assets[1]}/tags/disassociate/${tag.id}`);
    await ok('POST', `/conversations/${conversation.id}/delete`);
    await ok('POST', `/assets/${assets[2]}/delete`);
    await ok('POST', `/assets/${assets[1]}/delete`);
    await ok('POST', '/connect', { application: APPLICATION });

    const db = server.core.context.database.db;
    const offenders: string[] = [];
    let checked = 0;
    for (const sql of seen) {
      const text = sql.trim();
      // Counting a whole table walks its smallest index by design (and is cheap); anything else may not.
      if (!/^(SELECT|DELETE|UPDATE|INSERT|WITH)\b/i.test(text) || /^SELECT COUNT\(\*\) AS \w+ FROM \w+$/i.test(text) || ONCE.has(text)) continue;
      checked++;
      const plan = db.prepare(`EXPLAIN QUERY PLAN ${text}`).all() as Array<{ detail: string }>;
      for (const { detail } of plan) {
        const scan = /^SCAN (\w+)/.exec(detail);
        if (scan && GROWING.includes(scan[1]!)) offenders.push(`${text}\n    → ${detail}`);
      }
    }
    figures('query-plans', { statements: seen.size, checked, scans: offenders.length });
    assert.ok(checked >= 5, `only ${checked} relevant statements were seen`);
    assert.deepEqual(offenders, [], `full scans:\n${offenders.join('\n')}`);
  } finally {
    Database.prototype.prepare = original;
    await server.close();
  }
});
