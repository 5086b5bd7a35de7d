import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Emitter } from '../../src/core/events.ts';
import type { StreamedIdentifiers } from '../../src/core/piecesTypes.ts';
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

test('frames arriving during a bulk import are merged and loaded with a snapshot, not a fetch per record', async () => {
  const records = new Map(Array.from({ length: 10 }, (_, i) => [`a${i}`, `asset ${i}`] as [string, string]));
  const { stream, calls, src } = source(records, true);
  let changes = 0;
  const collection = new LiveCollection(src, silent);
  collection.onDidChange(() => changes++);
  stream.send([...records.keys()]);
  await collection.loaded;
  assert.deepEqual(calls, { fetch: 10, fetchAll: 0 });
  // An import's batches: each frame names a batch of new records; one deletes a record meanwhile.
  for (let batch = 0; batch < 50; batch++) {
    const ids = Array.from({ length: 20 }, (_, i) => `b${batch * 20 + i}`);
    for (const id of ids) records.set(id, `imported ${id}`);
    stream.send(ids);
  }
  records.delete('a3');
  stream.send(['a3'], true);
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(collection.size, 10 - 1 + 1000);
  assert.equal(collection.get('b999'), 'imported b999');
  assert.equal(collection.get('a3'), undefined);
  assert.ok(calls.fetchAll <= 2, `${calls.fetchAll} snapshots`);
  assert.ok(calls.fetch <= 10 + 20, `${calls.fetch - 10} records fetched one by one after the first frame`);
  assert.ok(changes <= 3, `${changes} change events for 51 frames`);
  collection.dispose();
});
