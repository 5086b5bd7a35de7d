/**
 * /satchel/assets/stream/recent: the identifiers stream the editor's Assets view follows. Its connect
 * frame names only the newest RECENT_IDENTIFIERS assets (the Pieces stream's names every one: 5.6 MB
 * at 100k, parsed in one turn of the editor's extension host), in the same order; its change frames
 * are the Pieces stream's.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, request, waitFor, type TestServer } from '../support/helpers.ts';
import { SatchelClient } from '../../src/client/satchelClient.ts';
import { RECENT_IDENTIFIERS } from '../../src/wire/snippets.ts';
import type { StreamedIdentifiers } from '../../src/core/piecesTypes.ts';

const ASSETS = RECENT_IDENTIFIERS + 5;
let t: TestServer;
let client: SatchelClient;

async function create(i: number): Promise<string> {
  const created = await request(t.url, 'POST', '/assets/create', {
    body: { asset: { format: { fragment: { string: { raw: `const recent${i} = ${i};\n` } } }, metadata: { name: `recent ${i}` } } },
  });
  assert.equal(created.status, 200, created.text);
  return created.json.id as string;
}

before(async () => {
  t = await startTestServer();
  client = new SatchelClient(t.url);
  for (let i = 0; i < ASSETS; i++) await create(i);
});
after(async () => {
  client.dispose();
  await t.close();
});

const ids = (frame: StreamedIdentifiers): string[] => (frame.iterable ?? []).map((entry) => entry.asset?.id ?? '?');

test('the connect frame names the newest RECENT_IDENTIFIERS assets, in the Pieces stream\'s order', async () => {
  const all = (await request(t.url, 'GET', '/assets/stream/identifiers')).json as StreamedIdentifiers;
  assert.equal(all.iterable?.length, ASSETS);
  const recent = await request(t.url, 'GET', '/satchel/assets/stream/recent');
  assert.equal(recent.status, 200);
  assert.deepEqual(ids(recent.json as StreamedIdentifiers), ids(all).slice(0, RECENT_IDENTIFIERS));
});

test('over a WebSocket: the newest few on connect, then each change as the Pieces stream sends it', async () => {
  const stream = client.recentAssetIdentifiers();
  const frames: StreamedIdentifiers[] = [];
  stream.onFrame((frame) => frames.push(frame));
  try {
    await waitFor(() => frames.length === 1);
    assert.equal(frames[0]!.iterable?.length, RECENT_IDENTIFIERS);
    const id = await create(ASSETS);
    await waitFor(() => frames.length === 2);
    assert.deepEqual(frames[1], { iterable: [{ asset: { id } }] });
    assert.equal((await request(t.url, 'POST', `/assets/${id}/delete`)).status, 200);
    await waitFor(() => frames.length === 3);
    assert.deepEqual(frames[2], { iterable: [{ asset: { id }, deleted: true }] });
  } finally {
    stream.dispose();
  }
});
