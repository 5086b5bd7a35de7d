/** One WebSocket client test per asset stream: the connect frame, a create, then a delete. */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { WebSocket } from 'ws';
import { AssetsApi, type Seed } from '@pieces.app/pieces-os-client';
import { startTestServer, type TestServer } from '../support/helpers.ts';
import { assertWire } from './assetsWireCheck.ts';

let t: TestServer;
let api: AssetsApi;
before(async () => {
  t = await startTestServer();
  api = new AssetsApi(t.sdk);
});
after(() => t.close());

const seed = (raw: string): Seed => ({ asset: { application: undefined as never, format: { fragment: { string: { raw } } } } }) as Seed;

/** A connected stream whose frames are queued and can be awaited one at a time. */
async function open(path: string): Promise<{ next(): Promise<any>; close(): void }> {
  const socket = new WebSocket(t.url.replace('http', 'ws') + path);
  const frames: unknown[] = [];
  const waiting: Array<(frame: unknown) => void> = [];
  socket.on('message', (data) => {
    const frame = JSON.parse(String(data));
    const waiter = waiting.shift();
    if (waiter) waiter(frame);
    else frames.push(frame);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return {
    next() {
      if (frames.length > 0) return Promise.resolve(frames.shift());
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no frame on ${path} within 5 s`)), 5000);
        waiting.push((frame) => {
          clearTimeout(timer);
          resolve(frame);
        });
      });
    },
    close: () => socket.close(),
  };
}

test('/assets/stream/identifiers: all ids on connect, then a create, then a deletion with deleted: true', async () => {
  const existing = await api.assetsCreateNewAsset({ seed: seed('const before = 1;') });
  const stream = await open('/assets/stream/identifiers');
  const first = await stream.next();
  assertWire('StreamedIdentifiers', first);
  assert.ok(first.iterable.some((x: any) => x.asset.id === existing.id));
  const created = await api.assetsCreateNewAsset({ seed: seed('const during = 2;') });
  const added = await stream.next();
  assertWire('StreamedIdentifiers', added);
  assert.deepEqual(added.iterable, [{ asset: { id: created.id } }]);
  await api.assetsDeleteAsset({ asset: created.id });
  let frame = await stream.next();
  while (!frame.iterable.some((x: any) => x.deleted)) frame = await stream.next();
  assertWire('StreamedIdentifiers', frame);
  assert.deepEqual(frame.iterable, [{ asset: { id: created.id }, deleted: true }]);
  stream.close();
});

for (const [path, content] of [
  ['/assets/stream', false],
  ['/assets/stream/transferables', true],
] as const) {
  test(`${path}: assets on connect, a create, and a deletion carrying its deleted timestamp`, async () => {
    const stream = await open(path);
    const first = await stream.next();
    assertWire('Assets', first);
    const created = await api.assetsCreateNewAsset({ seed: seed(`const streamed = "${path}";`) });
    let frame = await stream.next();
    while (!frame.iterable.some((a: any) => a.id === created.id)) frame = await stream.next();
    assertWire('Assets', frame);
    const shown = frame.iterable.find((a: any) => a.id === created.id);
    assert.equal(shown.formats.iterable[0].fragment?.string?.raw !== undefined, content);
    await api.assetsDeleteAsset({ asset: created.id });
    frame = await stream.next();
    while (!frame.iterable.some((a: any) => a.id === created.id && a.deleted)) frame = await stream.next();
    assertWire('Assets', frame);
    assert.equal(frame.indices[created.id], -1);
    assert.ok(!Number.isNaN(Date.parse(frame.iterable[0].deleted.value)));
    stream.close();
  });
}

test('pseudo assets are not streamed', async () => {
  const stream = await open('/assets/stream/identifiers');
  await stream.next();
  const hidden = await api.assetsCreateNewAsset({ seed: { asset: { ...seed('const secret = 1;').asset!, pseudo: true } } as Seed });
  const visible = await api.assetsCreateNewAsset({ seed: seed('const shown = 1;') });
  const frame = await stream.next();
  assert.deepEqual(frame.iterable, [{ asset: { id: visible.id } }], `the pseudo asset ${hidden.id} was skipped`);
  stream.close();
});
