import { test } from 'node:test';
import assert from 'node:assert/strict';
import { countText } from '../../src/core/countText.ts';

test('a count is grouped by thousands as en-US writes it', () => {
  const intl = new Intl.NumberFormat('en-US');
  for (const value of [0, 7, 999, 1_000, 65_536, 999_999, 1_000_000, 62_914_560, -1, -1_234, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER]) {
    assert.equal(countText(value), intl.format(value), String(value));
  }
  for (let value = 1; value < 1e15; value = value * 7 + 3) assert.equal(countText(value), intl.format(value));
});

test('what is not a whole number is written as it is', () => {
  assert.equal(countText(1.5), '1.5');
  assert.equal(countText(Number.NaN), 'NaN');
  assert.equal(countText(Infinity), 'Infinity');
});
