/** Time-ordered ids (the bulk write path's): valid version-7 UUIDs that sort in the order they were made. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newOrderedId } from '../../src/core/time.ts';

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

test('ids made in a burst are unique, valid version-7 UUIDs, and sort in the order they were made', () => {
  // More than the 4,096 a millisecond's sequence holds, so the overflow into the next millisecond is crossed.
  const ids = Array.from({ length: 20_000 }, () => newOrderedId());
  assert.ok(ids.every((id) => V7.test(id)), ids.find((id) => !V7.test(id)));
  assert.equal(new Set(ids).size, ids.length);
  assert.deepEqual([...ids].sort(), ids);
});

test('the leading 48 bits are the time in milliseconds', () => {
  const before = Date.now();
  const id = newOrderedId();
  const ms = parseInt(id.slice(0, 8) + id.slice(9, 13), 16);
  // A burst may have borrowed a few milliseconds ahead; never behind the clock.
  assert.ok(ms >= before && ms < Date.now() + 1000, `${ms} vs ${before}`);
});
