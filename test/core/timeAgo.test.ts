import { test } from 'node:test';
import assert from 'node:assert/strict';
import { timeAgo } from '../../src/core/timeAgo.ts';

const NOW = Date.parse('2026-05-01T12:00:00Z');
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const DAY = 24 * 60 * MINUTE;
const ago = (ms: number): string => new Date(NOW - ms).toISOString();

test('the short style (lists): the largest whole unit, counted in whole seconds', () => {
  assert.equal(timeAgo(ago(59 * SECOND), NOW, 'short'), 'just now');
  assert.equal(timeAgo(ago(59.6 * SECOND), NOW, 'short'), '1 min ago', 'rounded to the second first');
  assert.equal(timeAgo(ago(5 * MINUTE), NOW, 'short'), '5 min ago');
  assert.equal(timeAgo(ago(3 * 60 * MINUTE), NOW, 'short'), '3 h ago');
  assert.equal(timeAgo(ago(DAY + MINUTE), NOW, 'short'), '1 d ago');
  assert.equal(timeAgo(ago(8 * DAY), NOW, 'short'), '1 w ago');
  assert.equal(timeAgo(ago(45 * DAY), NOW, 'short'), '1 mo ago');
  assert.equal(timeAgo(ago(800 * DAY), NOW, 'short'), '2 y ago');
});

test('the long style (sentences): plurals, yesterday, and small counts of larger units', () => {
  assert.equal(timeAgo(ago(59.6 * SECOND), NOW, 'long'), 'just now');
  assert.equal(timeAgo(ago(MINUTE), NOW, 'long'), '1 minute ago');
  assert.equal(timeAgo(ago(2 * MINUTE), NOW, 'long'), '2 minutes ago');
  assert.equal(timeAgo(ago(DAY + MINUTE), NOW, 'long'), 'yesterday');
  assert.equal(timeAgo(ago(8 * DAY), NOW, 'long'), '8 days ago');
  assert.equal(timeAgo(ago(45 * DAY), NOW, 'long'), '6 weeks ago');
  assert.equal(timeAgo(ago(100 * DAY), NOW, 'long'), '3 months ago');
  assert.equal(timeAgo(ago(365 * DAY), NOW, 'long'), '1 year ago');
});

test('a missing or unreadable moment has no age', () => {
  assert.equal(timeAgo(undefined, NOW, 'short'), undefined);
  assert.equal(timeAgo('', NOW, 'short'), undefined);
  assert.equal(timeAgo('not a time', NOW, 'long'), undefined);
});
