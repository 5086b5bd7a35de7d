/**
 * The trash routes through Satchel's client against a real host: listing pages newest deleted
 * first (by kind, with a cursor) and refuses bad queries with 400; a restore is a write by its
 * requester (its revision the ETag), refused with 409 over a live id; Delete Forever takes the
 * history with it; emptying answers progress as NDJSON, one at a time, and a client that leaves
 * stops it between steps.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, request, errorCode, type TestServer } from '../support/helpers.ts';
import { codeSeed } from '../support/assetFixtures.ts';
import { SatchelClient } from '../../src/client/satchelClient.ts';
import { ClientError } from '../../src/client/errors.ts';
import { authorOf } from '../../src/core/history/authors.ts';
import { TEST_WRITE } from '../support/authors.ts';

/** `count` assets deleted one after the other (oldest first); their ids in that order. */
async function trashedAssets(h: TestServer, count: number, prefix = 'trashed'): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const asset = await h.core.assets.writes.create(codeSeed(`export const ${prefix}${i} = ${i};\n`, `${prefix} ${i}`), TEST_WRITE);
    h.core.assets.writes.delete(asset.id, TEST_WRITE);
    ids.push(asset.id);
  }
  return ids;
}

async function withHost(body: (h: TestServer, client: SatchelClient) => Promise<void>): Promise<void> {
  const h = await startTestServer();
  const client = new SatchelClient(h.url, { author: authorOf('vscode', 'Satchel for VS Code') });
  try {
    await body(h, client);
  } finally {
    client.dispose();
    await h.close();
  }
}

test('GET /satchel/trash pages newest deleted first, by kind, and refuses bad queries with a 400', async () => {
  await withHost(async (h, client) => {
    const assets = await trashedAssets(h, 5);
    const conversations: string[] = [];
    for (const name of ['first talk', 'second talk']) {
      const id = h.core.conversations.create({ type: 'COPILOT', name, messages: [{ role: 'USER', fragment: { string: { raw: name } } }] }, false, TEST_WRITE).id;
      h.core.conversations.delete(id, TEST_WRITE);
      conversations.push(id);
    }
    const newestFirst = [...assets, ...conversations].reverse();
    const page = await client.trash.list({ limit: 3 });
    assert.deepEqual(page.items.map((item) => item.id), newestFirst.slice(0, 3));
    assert.equal(page.total, 7);
    assert.equal(page.retentionDays, 30);
    assert.ok(page.next);
    const all: string[] = [];
    for await (const item of client.trash.all({ limit: 2 })) all.push(item.id);
    assert.deepEqual(all, newestFirst, 'every entry once, page after page');
    const onlyConversations = await client.trash.list({ kind: 'conversation' });
    assert.deepEqual(onlyConversations.items.map((item) => [item.id, item.messages]), [[conversations[1], 1], [conversations[0], 1]]);
    assert.equal(onlyConversations.total, 2);
    assert.equal((await client.trash.list({ kind: 'asset' })).total, 5);
    assert.equal((await client.trash.get(assets[0]!)).name, 'trashed 0');

    for (const query of ['limit=0', 'limit=501', 'limit=ten', 'kind=snippet', 'after=yesterday']) {
      const reply = await request(h.url, 'GET', `/satchel/trash?${query}`);
      assert.equal(reply.status, 400, query);
      assert.equal(errorCode(reply), 'invalid_input', query);
    }
    const missing = await request(h.url, 'GET', '/satchel/trash/no-such-entry');
    assert.equal(missing.status, 404);
    assert.equal(errorCode(missing), 'not_found');
  });
});

test('a restore is a write by its requester answered with its revision; over a live id it is a 409; Delete Forever takes the history', async () => {
  await withHost(async (h, client) => {
    const [restored, forgotten] = await trashedAssets(h, 2);
    const reply = await request(h.url, 'POST', `/satchel/trash/${restored}/restore`, { headers: { 'satchel-author': 'mcp; name=Claude%20Code' } });
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.etag, `"${reply.json.revision}"`);
    const history = await client.history.list(restored!);
    assert.equal(history.current, reply.json.revision);
    assert.deepEqual(history.revisions[0]!.author, authorOf('mcp', 'Claude Code'));
    assert.equal((await client.assets.get(restored!)).name, 'trashed 0');

    const again = await request(h.url, 'POST', `/satchel/trash/${restored}/restore`);
    assert.equal(again.status, 404, 'it left the trash');
    h.core.assets.writes.delete(restored!, TEST_WRITE);
    // The same id made live again meanwhile (a sync, an import of a Pieces export).
    h.core.context.database
      .prepare("INSERT INTO assets (id, created, updated, name, language, data) SELECT id, '2025-01-01', '2025-01-01', name, 'ts', data FROM trash WHERE id = ?")
      .run(restored!);
    const conflict = await client.trash.restore(restored!).then(
      () => undefined,
      (error: unknown) => error,
    );
    assert.ok(conflict instanceof ClientError && conflict.status === 409, String(conflict));

    const deleted = await client.trash.deleteForever(forgotten!);
    assert.deepEqual([deleted.id, deleted.kind], [forgotten, 'asset']);
    assert.ok(deleted.revisions >= 1);
    await assert.rejects(client.history.list(forgotten!), (error: unknown) => error instanceof ClientError && error.notFound);
    await assert.rejects(client.trash.deleteForever(forgotten!), (error: unknown) => error instanceof ClientError && error.notFound);
  });
});

test('emptying answers progress, then the count; a second empty meanwhile is refused; a client that leaves stops it', async () => {
  await withHost(async (h, client) => {
    await trashedAssets(h, 40);
    const progress: number[] = [];
    const [emptied, second] = await Promise.allSettled([client.trash.empty({ onProgress: (p) => progress.push(p.deleted) }), client.trash.empty()]);
    assert.equal(emptied.status, 'fulfilled');
    assert.equal(emptied.status === 'fulfilled' && emptied.value.deleted, 40);
    assert.deepEqual([progress[0], progress.at(-1)], [0, 40]);
    // As it went: the first step's line at once, then at most one every 100 ms (ndjson.ts), rising.
    assert.ok(progress.length >= 2 && progress.every((deleted, i) => i === 0 || deleted >= progress[i - 1]!), `progress as it went: ${progress.join(', ')}`);
    assert.equal(second.status, 'rejected');
    assert.ok(second.status === 'rejected' && second.reason instanceof ClientError && second.reason.status === 409, String(second.status === 'rejected' && second.reason));
    assert.equal((await client.trash.list()).total, 0);

    // Over plain HTTP the second empty is a 409 refusal, as docs/trash.md says, not a 200 with an error line.
    await trashedAssets(h, 40, 'again');
    const first = client.trash.empty();
    const raw = await request(h.url, 'POST', '/satchel/trash/empty');
    assert.equal(raw.status, 409, raw.text.slice(0, 200));
    assert.equal(errorCode(raw), 'conflict');
    assert.equal((await first).deleted, 40);

    await trashedAssets(h, 400, 'kept');
    const stop = new AbortController();
    await assert.rejects(client.trash.empty({ signal: stop.signal, onProgress: () => stop.abort() }));
    // The host stops at the next step once the connection is gone: the count holds still.
    let left = -1;
    for (let seen = -2; left !== seen; ) {
      seen = left;
      await new Promise((resolve) => setTimeout(resolve, 300));
      left = (await client.trash.list({ limit: 1 })).total;
    }
    assert.ok(left > 0, `the empty went on after its client left (${left} left)`);
    assert.equal((await client.trash.empty()).deleted, left, 'what it left is emptied by the next');
  });
});

test('an empty whose client leaves is logged as cancelled in one line, with no stack', async () => {
  const logged: Array<{ level: string; message: string; error?: unknown }> = [];
  const logger = {
    info: (message: string) => void logged.push({ level: 'info', message }),
    warn: (message: string) => void logged.push({ level: 'warn', message }),
    error: (message: string, error?: unknown) => void logged.push({ level: 'error', message, error }),
  };
  const h = await startTestServer({ logger });
  const client = new SatchelClient(h.url, { author: authorOf('vscode', 'Satchel for VS Code') });
  try {
    await trashedAssets(h, 200);
    const stop = new AbortController();
    await assert.rejects(client.trash.empty({ signal: stop.signal, onProgress: () => stop.abort() }));
    for (let waited = 0; waited < 10_000 && !logged.some((line) => /cancelled/.test(line.message)); waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual(
      logged.filter((line) => line.level !== 'info'),
      [],
      'nothing logged as a failure',
    );
    assert.deepEqual(
      logged.filter((line) => /empty|cancel/.test(line.message) && !line.message.startsWith('Backup ')).map((line) => line.message),
      ['/satchel/trash/empty cancelled'],
    );
  } finally {
    client.dispose();
    await h.close();
  }
});
