/**
 * Odd inputs that were answered inconsistently (issue 18 row 12): byte values that asset create
 * refuses are refused by intention and reaction too; a special file given to model import is a
 * 4xx, not a 500; a GET writes nothing; a download refused for its size leaves no file behind.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { request, startTestServer, waitFor, type TestServer } from '../support/helpers.ts';
import { storeDigest, figures } from './support.ts';
import { APPLICATION, seed } from './writes.ts';

let t: TestServer;
let appId = '';

before(async () => {
  t = await startTestServer();
  appId = (await request(t.url, 'POST', '/connect', { body: { application: APPLICATION } })).json.application.id;
});

after(async () => {
  await t.close();
});

const BAD_BYTES: ReadonlyArray<readonly [string, number]> = [
  ['1e300', 1e300],
  ['-5', -5],
  ['3.7', 3.7],
  ['256', 256],
];

test('byte values create refuses are refused by intention and reaction too, with the same 400', async () => {
  const statuses: string[] = [];
  for (const [name, value] of BAD_BYTES) {
    const format = { fragment: { bytes: { raw: [1, value] } } };
    const create = await request(t.url, 'POST', '/assets/create', {
      body: { type: 'SEEDED_ASSET', asset: { application: APPLICATION, format } },
    });
    const intention = await request(t.url, 'POST', `/${appId}/intention`, { body: { asset: { format } } });
    const reaction = await request(t.url, 'POST', `/${appId}/reaction`, { body: { save: true, seed: { asset: { format } } } });
    statuses.push(`${name}:${create.status}/${intention.status}/${reaction.status}`);
    assert.equal(create.status, 400, `create with byte ${name}`);
    assert.equal(intention.status, 400, `intention with byte ${name}: ${intention.text.slice(0, 200)}`);
    assert.equal(reaction.status, 400, `reaction with byte ${name}: ${reaction.text.slice(0, 200)}`);
  }
  figures('odd-bytes', { cases: statuses.join(',') });
});

test('importing a special file (/proc/self/mem) is a 4xx with a clear message, and registers no model', { skip: !existsSync('/proc/self/mem') }, async () => {
  const before = (await request(t.url, 'GET', '/models')).json.iterable.length;
  const reply = await request(t.url, 'POST', '/models/import', { body: { path: '/proc/self/mem' } });
  const after = (await request(t.url, 'GET', '/models')).json.iterable.length;
  figures('odd-import', { status: reply.status });
  assert.ok(reply.status >= 400 && reply.status < 500, `answered ${reply.status} ${reply.text.slice(0, 200)}`);
  assert.match(reply.json.error.message, /\/proc\/self\/mem/);
  assert.equal(after, before);
});

test('GET /asset/:id/export writes nothing', async () => {
  const id = (await request(t.url, 'POST', '/assets/create?transferables=false', { body: seed('const exported = 1;') })).json.id as string;
  // The background secrets scan of the new snippet writes its own records: done before the digest.
  await t.core.assets.secrets.settled();
  await t.core.context.database.settled();
  const db = new DatabaseSync(join(t.dataDir, 'satchel.db'), { readOnly: true });
  try {
    const digest = storeDigest(db);
    for (const type of ['MD', 'TS', 'HTML']) {
      const reply = await request(t.url, 'GET', `/asset/${id}/export?export_type=${type}`);
      assert.ok(reply.status === 200 || reply.status === 400, `export ${type}: ${reply.status}`);
    }
    await t.core.context.database.settled();
    assert.equal(storeDigest(db), digest, 'an export changed the store');
  } finally {
    db.close();
  }
});

test('a download refused for its announced size (10 TB) leaves no file behind', async () => {
  const origin: Server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(10 * 1024 ** 4) });
    res.write('GGUF');
  });
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  try {
    const port = (origin.address() as { port: number }).port;
    const model = await request(t.url, 'POST', '/models/create', {
      body: {
        version: '1',
        created: { value: new Date().toISOString() },
        name: 'ten terabytes',
        cloud: false,
        type: 'BALANCED',
        usage: 'CODE_CONVERSATION',
        unique: `http://127.0.0.1:${port}/huge.gguf`,
      },
    });
    assert.equal(model.status, 200, model.text);
    const id = model.json.id as string;
    const started = await request(t.url, 'POST', `/model/${id}/download`);
    assert.equal(started.status, 200, started.text);
    await waitFor(() => !t.core.models.get(id).downloading, 15_000);
    const progress = await request(t.url, 'GET', `/model/${id}/download/progress`);
    const folder = join(t.dataDir, 'models', id);
    const left = existsSync(folder) ? readdirSync(folder) : [];
    figures('odd-refused-download', { status: progress.json.status, leftovers: left.join('+') || 'none' });
    assert.equal(progress.json.status, 'FAILED');
    assert.deepEqual(left, []);
  } finally {
    origin.closeAllConnections();
    origin.close();
  }
});
