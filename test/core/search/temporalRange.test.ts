/**
 * Time phrases as UTC ranges in the user's time zone (here Europe/Berlin, UTC+1 in November):
 * days, weeks (Monday first), months, parts of a day, "past N hours"; future ends cut to now.
 */
process.env.TZ = 'Europe/Berlin';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { temporalRanges } from '../../../src/core/search/temporalRange.ts';

// Saturday 28 November 2026, 20:30 in Berlin.
const NOW = new Date('2026-11-28T19:30:00Z');

function ranges(query: string): Array<[string, string]> {
  return temporalRanges(query, NOW).ranges.map((range) => [range.from, range.to]);
}

test('days, weeks, months and parts of a day are whole spans in the local time zone', () => {
  assert.deepEqual(ranges('what did I do yesterday'), [['2026-11-26T23:00:00.000Z', '2026-11-27T22:59:59.999Z']]);
  assert.deepEqual(ranges('last week'), [['2026-11-15T23:00:00.000Z', '2026-11-22T22:59:59.999Z']]);
  assert.deepEqual(ranges('back in August'), [['2026-07-31T22:00:00.000Z', '2026-08-31T21:59:59.999Z']]);
  assert.deepEqual(ranges('last Tuesday afternoon'), [['2026-11-24T11:00:00.000Z', '2026-11-24T16:59:59.999Z']]);
  assert.deepEqual(ranges('the past 3 hours'), [['2026-11-28T16:30:00.000Z', '2026-11-28T19:30:00.000Z']]);
});

test('a range reaching past now ends now, with a note; one wholly in the future is left out; no phrase, no range', () => {
  const today = temporalRanges('today', NOW);
  assert.deepEqual(today.ranges.map((r) => [r.from, r.to]), [['2026-11-27T23:00:00.000Z', NOW.toISOString()]]);
  assert.match(today.note!, /cut at the current time/);
  const tomorrow = temporalRanges('tomorrow', NOW);
  assert.deepEqual(tomorrow.ranges, []);
  assert.match(tomorrow.note!, /future/);
  assert.deepEqual(temporalRanges('how does the cache work', NOW), { ranges: [] });
});
