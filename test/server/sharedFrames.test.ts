import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Emitter } from '../../src/core/events.ts';
import { SharedFrames } from '../../src/server/sharedFrames.ts';

interface Change {
  readonly id: string;
}

test('connect and change frames are built once and shared; a change makes the next connect frame fresh', () => {
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
  const first = frames.initial();
  assert.equal(frames.initial(), first, 'the same bytes for every subscriber');
  assert.deepEqual(JSON.parse(first.toString()), { iterable: ['a'] });
  assert.equal(builds, 1);

  const seen: Buffer[] = [];
  // Two subscribers' listeners, registered after the frames' own.
  for (let i = 0; i < 2; i++) changes.event((change) => void seen.push(frames.change(change)!));
  state = ['a', 'b'];
  changes.fire({ id: 'b' });
  assert.equal(seen.length, 2);
  assert.equal(seen[0], seen[1], 'one encoded change frame for all');
  assert.deepEqual(JSON.parse(seen[0]!.toString()), { iterable: ['b'] });
  assert.deepEqual(JSON.parse(frames.initial().toString()), { iterable: ['a', 'b'] }, 'connect frame rebuilt after the change');
  assert.equal(builds, 2);
  assert.equal(frames.change({ id: 'quiet' }), undefined);
  frames.dispose();
  changes.fire({ id: 'c' });
  assert.equal(frames.initial().toString(), JSON.stringify({ iterable: ['a', 'b'] }), 'disposed: no longer follows changes');
});
