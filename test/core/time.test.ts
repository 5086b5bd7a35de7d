import { test } from 'node:test';
import assert from 'node:assert/strict';
import { stamp, stampAt } from '../../src/core/time.ts';

// The readable time was Intl's en-US medium date and short time in UTC; it is written without Intl now.
const intl = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
// Newer ICU puts a narrow no-break space before AM/PM; the text a user reads is the same.
const expected = (date: Date): string => `${intl.format(date).replace(/\s/gu, ' ')} UTC`;

test('a stamp reads as Intl en-US medium date and short time in UTC would write it', () => {
  const edges = ['2026-11-29T00:05:00Z', '2026-01-02T12:00:00Z', '2026-05-09T23:59:59.999Z', '2024-02-29T11:59:00Z', '1970-01-01T00:00:00Z', '9999-12-31T13:01:00Z'];
  for (const value of edges) assert.equal(stamp(new Date(value)).readable, expected(new Date(value)), value);
  // A day's every minute-of-hour pattern and a spread of days over four centuries.
  for (let i = 0; i < 5_000; i++) {
    const date = new Date(Date.UTC(1900, 0, 1) + Math.floor(((i * 2654435761) % 4_294_967_296) / 4_294_967_296 * 400 * 365.25 * 86_400_000));
    assert.equal(stamp(date).readable, expected(date), date.toISOString());
  }
});

test('stampAt keeps the value it was given and reads it in UTC', () => {
  const at = stampAt('2026-11-29T13:05:00+02:00');
  assert.equal(at.value, '2026-11-29T13:05:00+02:00');
  assert.equal(at.readable, 'Nov 29, 2026, 11:05 AM UTC');
});
