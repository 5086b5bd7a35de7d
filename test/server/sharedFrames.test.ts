import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Emitter } from '../../src/core/events.ts';
import { SharedFrames, registerSharedStream } from '../../src/server/sharedFrames.ts';
import { StreamRegistry } from '../../src/server/streams.ts';
import { silentLogger } from '../../src/core/context.ts';
import { fullCollection } from '../../src/hosting/idleCollection.ts';

interface Change {
  readonly id: string;
}

async function connectFrame(frames: SharedFrames<Change>): Promise<Buffer[]> {
  const parts: Buffer[] = [];
  for await (const part of frames.connect()) parts.push(part);
  return parts;
}

test('connect and change frames are built once and shared; a change makes the next connect frame fresh', async () => {
  const changes = new Emitter<Change>();
  let state = ['a'];
  let builds = 0;
  const frames = new SharedFrames<Change>(
    {
      initial: () => (builds++, { iterable: state }),
      change: (change) => (change.id === 'quiet' ? undefined : { iterable: [change.id] }),
    },
    changes.event,
  );
  const [first, again] = await Promise.all([connectFrame(frames), connectFrame(frames)]);
  assert.equal(first.length, 1);
  assert.equal(again[0], first[0], 'the same bytes for every subscriber');
  assert.deepEqual(JSON.parse(first[0]!.toString()), { iterable: ['a'] });
  assert.equal(builds, 1);

  const seen: Buffer[] = [];
  // Two subscribers' listeners, registered after the frames' own.
  for (let i = 0; i < 2; i++) changes.event((change) => void seen.push(frames.change(change)!));
  state = ['a', 'b'];
  changes.fire({ id: 'b' });
  assert.equal(seen.length, 2);
  assert.equal(seen[0], seen[1], 'one encoded change frame for all');
  assert.deepEqual(JSON.parse(seen[0]!.toString()), { iterable: ['b'] });
  assert.deepEqual(JSON.parse(Buffer.concat(await connectFrame(frames)).toString()), { iterable: ['a', 'b'] }, 'connect frame rebuilt after the change');
  assert.equal(builds, 2);
  assert.equal(frames.change({ id: 'quiet' }), undefined);
  frames.dispose();
  changes.fire({ id: 'c' });
  assert.equal(Buffer.concat(await connectFrame(frames)).toString(), JSON.stringify({ iterable: ['a', 'b'] }), 'disposed: no longer follows changes');
});

test('a connect frame given in parts is shared by subscribers joining while it is small; once large it takes no one new and is not kept', async () => {
  const changes = new Emitter<Change>();
  let builds = 0;
  const head = Buffer.alloc(300 * 1024, 0x61);
  const big = Buffer.alloc(17 * 1024 * 1024, 0x62);
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  async function* initial(): AsyncGenerator<Buffer> {
    const build = ++builds;
    yield Buffer.from('{"iterable":["');
    yield head;
    // Only the first build waits for the test; later ones run through.
    if (build === 1) await gate;
    yield big;
    for (let i = 0; i < 1000; i++) yield Buffer.from('x');
    yield Buffer.from('"]}');
  }
  const frames = new SharedFrames<Change>({ initial, change: () => undefined }, changes.event);
  const first = frames.connect()[Symbol.asyncIterator]();
  const opening = await first.next();
  // The frame is still small: a subscriber joining now shares the build.
  const sharing = connectFrame(frames);
  open();
  const rest = [opening.value as Buffer];
  for (let part = await first.next(); !part.done; part = await first.next()) rest.push(part.value);
  const other = await sharing;
  assert.equal(builds, 1, 'a subscriber joining while the frame is small shares the build');
  assert.equal(rest.length, other.length);
  rest.forEach((part, i) => assert.equal(part, other[i], 'the same buffers, not copies'));
  assert.ok(rest.includes(big), 'a large part is sent as it is');
  assert.ok(rest.length <= 5, `small parts are joined into fragments (${rest.length} parts)`);
  const text = Buffer.concat(rest).toString();
  assert.equal(text.length, head.length + big.length + 1000 + 17);
  assert.ok(text.startsWith('{"iterable":["aaa') && text.endsWith('xxx"]}'));
  await connectFrame(frames);
  assert.equal(builds, 2, 'a frame over the kept size is built again for a later subscriber');

  // Once a build is large, a subscriber joining it gets a build of its own (the first one's
  // parts are let go as its readers pass them, so it cannot start a newcomer from the beginning).
  const reader = frames.connect()[Symbol.asyncIterator]();
  const parts: Buffer[] = [];
  for (let part = await reader.next(); !part.done; part = await reader.next()) {
    parts.push(part.value);
    if (part.value === big) break;
  }
  const late = await connectFrame(frames);
  assert.equal(builds, 4, 'a subscriber joining a large build mid-way has its own');
  assert.equal(Buffer.concat(late).toString(), text);
  await reader.return?.(undefined);
  frames.dispose();
});

test('a connect frame in parts stops being built when its last reader leaves, and the next connect builds it again', async () => {
  const changes = new Emitter<Change>();
  let builds = 0;
  let produced = 0;
  let stopped = 0;
  async function* initial(): AsyncGenerator<Buffer> {
    builds++;
    try {
      yield Buffer.from('[');
      for (let i = 0; i < 100; i++) {
        await new Promise((resolve) => setImmediate(resolve));
        produced++;
        yield Buffer.alloc(300 * 1024, 0x30);
      }
      yield Buffer.from(']');
    } finally {
      stopped++;
    }
  }
  const frames = new SharedFrames<Change>({ initial, change: () => undefined }, changes.event);
  const reader = frames.connect()[Symbol.asyncIterator]();
  await reader.next();
  await reader.return!(undefined);
  for (let i = 0; i < 50 && stopped === 0; i++) await new Promise((resolve) => setImmediate(resolve));
  assert.equal(stopped, 1, 'the build stopped');
  assert.ok(produced < 100, `${produced} of 100 parts were built for nobody`);
  const whole = Buffer.concat(await connectFrame(frames));
  assert.equal(builds, 2, 'an incomplete frame is not shared with a later subscriber');
  assert.equal(whole.length, 2 + 100 * 300 * 1024);
  frames.dispose();
});

test('a kept connect frame is let go keepMs after it was built, with no change: the next subscriber builds it again', async () => {
  const changes = new Emitter<Change>();
  let builds = 0;
  async function* initial(): AsyncGenerator<Buffer> {
    builds++;
    yield Buffer.from('[');
    yield Buffer.alloc(300 * 1024, 0x30);
    yield Buffer.from(']');
  }
  const frames = new SharedFrames<Change>({ initial, change: () => undefined }, changes.event, { keepMs: 40 });
  const first = Buffer.concat(await connectFrame(frames));
  assert.equal(Buffer.concat(await connectFrame(frames)).toString(), first.toString());
  assert.equal(builds, 1, 'within keepMs a later subscriber shares the built frame');
  await new Promise((resolve) => setTimeout(resolve, 80));
  assert.equal(Buffer.concat(await connectFrame(frames)).toString(), first.toString());
  assert.equal(builds, 2, 'past keepMs the frame was let go and built again');
  assert.equal(Buffer.concat(await connectFrame(frames)).toString(), first.toString());
  assert.equal(builds, 2, 'the rebuilt frame is kept again');
  frames.dispose();
});

test('a kept connect frame let go by a change is not held until its keep time ends', async () => {
  const collect = fullCollection();
  assert.ok(collect, 'this runtime can collect on demand');
  const changes = new Emitter<Change>();
  let built: WeakRef<Buffer> | undefined;
  async function* initial(): AsyncGenerator<Buffer> {
    const part = Buffer.alloc(300 * 1024, 0x30);
    built = new WeakRef(part);
    yield part;
  }
  const frames = new SharedFrames<Change>({ initial, change: () => undefined }, changes.event, { keepMs: 60_000 });
  assert.equal((await connectFrame(frames)).length, 1);
  changes.fire({ id: 'a' });
  // WeakRefs hold their target until the current job ends.
  await new Promise((resolve) => setImmediate(resolve));
  collect();
  assert.equal(built?.deref(), undefined, 'the frame was collected after the change, not kept by its expiry timer');
  frames.dispose();
});

test('a registered shared stream stops listening to changes when its registry is disposed', () => {
  const changes = new Emitter<Change>();
  const streams = new StreamRegistry(silentLogger, { pingIntervalMs: 60_000 });
  registerSharedStream(streams, '/things/stream', { initial: () => ({ iterable: [] }), change: (c: Change) => ({ id: c.id }) }, changes.event);
  assert.equal(changes.size, 1, 'the shared frames listen for changes');
  streams.dispose();
  assert.equal(changes.size, 0, 'nothing listens after the registry is gone');
});
