import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Emitter } from '../../src/core/events.ts';
import type { StreamedIdentifiers } from '../../src/core/piecesTypes.ts';
import { FETCH_CHUNK, LiveCollection, type IdentifierStream, type LiveCollectionSource } from '../../src/extension/liveCollection.ts';

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
  /** Requests: one per fetch and per fetchMany; `records`: how many records they answered with; `largest`: the most ids one fetchMany named. */
  const calls = { fetch: 0, fetchMany: 0 };
  const cost = { records: 0, largest: 0 };
  const src: LiveCollectionSource<string> = {
    open: () => stream,
    key: (entry) => entry.asset?.id,
    fetch: async (id) => {
      calls.fetch++;
      const value = records.get(id);
      if (value === undefined) throw new Error('gone');
      cost.records++;
      return value;
    },
    ...(bulk
      ? {
          fetchMany: async (ids: readonly string[]) => {
            calls.fetchMany++;
            cost.largest = Math.max(cost.largest, ids.length);
            const found = new Map(ids.flatMap((id) => (records.has(id) ? [[id, records.get(id)!] as [string, string]] : [])));
            cost.records += found.size;
            return found;
          },
        }
      : {}),
  };
  return { stream, calls, cost, src };
}

test('a large first frame is loaded in chunks of its ids; later frames fetch by id; the frame decides membership', async () => {
  const records = new Map(Array.from({ length: 100 }, (_, i) => [`a${i}`, `asset ${i}`] as [string, string]));
  const { stream, calls, src } = source(records, true);
  const collection = new LiveCollection(src, silent);
  records.set('late', 'created after the frame');
  stream.send([...Array.from({ length: 100 }, (_, i) => `a${i}`)]);
  await collection.loaded;
  assert.equal(collection.size, 100, 'a record the frame does not name stays out');
  assert.deepEqual(calls, { fetch: 0, fetchMany: 1 });
  records.set('a5', 'renamed');
  stream.send(['a5']);
  stream.send(['a6'], true);
  await new Promise((resolve) => setTimeout(resolve, 10));
  assert.equal(collection.get('a5'), 'renamed');
  assert.equal(collection.get('a6'), undefined);
  assert.deepEqual(calls, { fetch: 1, fetchMany: 1 });
  collection.dispose();
});

test('without a snapshot, or for a small frame, records are fetched one by one', async () => {
  const records = new Map(Array.from({ length: 40 }, (_, i) => [`a${i}`, `asset ${i}`] as [string, string]));
  const { stream, calls, src } = source(records, false);
  const collection = new LiveCollection(src, silent);
  stream.send([...records.keys()]);
  await collection.loaded;
  assert.equal(collection.size, 40);
  assert.deepEqual(calls, { fetch: 40, fetchMany: 0 });
  collection.dispose();
});

test('frames arriving during a bulk import are merged and loaded in bulk, not a fetch per record', async () => {
  const records = new Map(Array.from({ length: 10 }, (_, i) => [`a${i}`, `asset ${i}`] as [string, string]));
  const { stream, calls, src } = source(records, true);
  let changes = 0;
  const collection = new LiveCollection(src, silent);
  collection.onDidChange(() => changes++);
  stream.send([...records.keys()]);
  await collection.loaded;
  assert.deepEqual(calls, { fetch: 10, fetchMany: 0 });
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
  assert.ok(calls.fetchMany <= 2 * Math.ceil(1000 / FETCH_CHUNK), `${calls.fetchMany} bulk requests`);
  assert.ok(calls.fetch <= 10 + 20, `${calls.fetch - 10} records fetched one by one after the first frame`);
  assert.ok(changes <= 3, `${changes} change events for 51 frames`);
  collection.dispose();
});

test('a frame naming 300 ids in a 10k store fetches those 300 records, in bounded chunks, not the store', async () => {
  const records = new Map(Array.from({ length: 10_000 }, (_, i) => [`a${i}`, `asset ${i}`] as [string, string]));
  const { stream, calls, cost, src } = source(records, true);
  const collection = new LiveCollection(src, silent);
  stream.send([...records.keys()]);
  await collection.loaded;
  assert.equal(collection.size, 10_000);
  assert.equal(cost.records, 10_000, 'the first frame reads each record once');
  assert.ok(cost.largest <= FETCH_CHUNK, `one request named ${cost.largest} ids`);
  assert.equal(calls.fetchMany, Math.ceil(10_000 / FETCH_CHUNK));
  // An import batch: 300 new records, named by one frame.
  const batch = Array.from({ length: 300 }, (_, i) => `b${i}`);
  for (const id of batch) records.set(id, `imported ${id}`);
  const before = { ...calls, records: cost.records };
  const changed = new Promise((resolve) => collection.onDidChange(resolve));
  stream.send(batch);
  await changed;
  assert.equal(collection.size, 10_300);
  assert.equal(collection.get('b299'), 'imported b299');
  assert.equal(cost.records - before.records, 300, 'only the records the frame named were read');
  assert.equal(calls.fetchMany - before.fetchMany, 2, '300 ids in chunks of at most FETCH_CHUNK');
  assert.equal(calls.fetch, before.fetch, 'none one by one');
  collection.dispose();
});

test('an id the bulk request does not answer for is gone; a failed chunk is fetched one by one', async () => {
  const records = new Map(Array.from({ length: 50 }, (_, i) => [`a${i}`, `asset ${i}`] as [string, string]));
  const { stream, calls, src } = source(records, true);
  const fetchMany = src.fetchMany!;
  let failNext = false;
  src.fetchMany = async (ids) => {
    if (failNext) {
      failNext = false;
      throw new Error('host busy');
    }
    return fetchMany(ids);
  };
  const collection = new LiveCollection(src, silent);
  stream.send([...records.keys()]);
  await collection.loaded;
  assert.equal(collection.size, 50);
  // 40 named again: a0 was deleted meanwhile (absent from the reply), the rest renamed.
  records.delete('a0');
  for (let i = 1; i < 40; i++) records.set(`a${i}`, `renamed ${i}`);
  let changed = new Promise((resolve) => collection.onDidChange(resolve));
  stream.send(Array.from({ length: 40 }, (_, i) => `a${i}`));
  await changed;
  assert.equal(collection.get('a0'), undefined);
  assert.equal(collection.get('a39'), 'renamed 39');
  assert.equal(calls.fetch, 0);
  failNext = true;
  records.set('a45', 'renamed again');
  changed = new Promise((resolve) => collection.onDidChange(resolve));
  stream.send(Array.from({ length: 40 }, (_, i) => `a${i + 10}`));
  await changed;
  assert.equal(calls.fetch, 40, 'the failed chunk was asked for one record at a time');
  assert.equal(collection.get('a45'), 'renamed again');
  collection.dispose();
});
