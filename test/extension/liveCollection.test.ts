import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Emitter } from '../../src/core/events.ts';
import type { StreamedIdentifiers } from '../../src/core/wire.ts';
import { LiveCollection, type IdentifierStream, type LiveCollectionSource } from '../../src/extension/liveCollection.ts';

const silent = { info() {}, warn() {}, error() {} };

function fakeStream(): IdentifierStream & { send(ids: string[], deleted?: boolean): void } {
  const frames = new Emitter<StreamedIdentifiers>();
  const connected = new Emitter<boolean>();
  return {
    onFrame: frames.event,
    onDidChangeConnected: connected.event,
    dispose: () => frames.dispose(),
    send: (ids, deleted = false) => frames.fire({ iterable: ids.map((id) => ({ asset: { id }, ...(deleted ? { deleted: true } : {}) })) }),
  };
}

function source(records: Map<string, string>, bulk: boolean) {
  const stream = fakeStream();
  const calls = { fetch: 0, fetchAll: 0 };
  const src: LiveCollectionSource<string> = {
    open: () => stream,
    key: (entry) => entry.asset?.id,
    fetch: async (id) => {
      calls.fetch++;
      const value = records.get(id);
      if (value === undefined) throw new Error('gone');
      return value;
    },
    ...(bulk ? { fetchAll: async () => (calls.fetchAll++, new Map(records)) } : {}),
  };
  return { stream, calls, src };
}

test('a large first frame is loaded with one snapshot; later frames fetch by id; the frame decides membership', async () => {
  const records = new Map(Array.from({ length: 100 }, (_, i) => [`a${i}`, `asset ${i}`] as [string, string]));
  const { stream, calls, src } = source(records, true);
  const collection = new LiveCollection(src, silent);
  records.set('late', 'created after the frame');
  stream.send([...Array.from({ length: 100 }, (_, i) => `a${i}`)]);
  await collection.loaded;
  assert.equal(collection.size, 100, 'a record the frame does not name stays out');
  assert.deepEqual(calls, { fetch: 0, fetchAll: 1 });
  records.set('a5', 'renamed');
  stream.send(['a5']);
  stream.send(['a6'], true);
  await new Promise((resolve) => setTimeout(resolve, 10));
  assert.equal(collection.get('a5'), 'renamed');
  assert.equal(collection.get('a6'), undefined);
  assert.deepEqual(calls, { fetch: 1, fetchAll: 1 });
  collection.dispose();
});

test('without a snapshot, or for a small frame, records are fetched one by one', async () => {
  const records = new Map(Array.from({ length: 40 }, (_, i) => [`a${i}`, `asset ${i}`] as [string, string]));
  const { stream, calls, src } = source(records, false);
  const collection = new LiveCollection(src, silent);
  stream.send([...records.keys()]);
  await collection.loaded;
  assert.equal(collection.size, 40);
  assert.deepEqual(calls, { fetch: 40, fetchAll: 0 });
  collection.dispose();
});
