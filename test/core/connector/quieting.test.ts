import { test } from 'node:test';
import assert from 'node:assert/strict';
import { quietingFor, quietedThreshold, quietedMinimum, defaultQuietingSettings as settings, type ReactionRecord } from '../../../src/core/connector/quieting.ts';
import { decide, trivialReason, type DecisionInput } from '../../../src/core/connector/decision.ts';
import { defaultConnectorSettings } from '../../../src/core/connector/connectorService.ts';

const HOUR = 60 * 60 * 1000;
const now = Date.parse('2026-03-01T12:00:00Z');
const dismissed = (hoursAgo: number): ReactionRecord => ({ outcome: 'dismissed', at: now - hoursAgo * HOUR });
const accepted = (hoursAgo: number): ReactionRecord => ({ outcome: 'accepted', at: now - hoursAgo * HOUR });

test('one dismissal changes nothing; the second starts quieting, each further one adds a level', () => {
  assert.deepEqual(quietingFor([], now), { level: 0, dismissals: 0 });
  assert.equal(quietingFor([dismissed(1)], now).level, 0);
  assert.equal(quietingFor([dismissed(2), dismissed(1)], now).level, 1);
  assert.equal(quietingFor([dismissed(3), dismissed(2), dismissed(1)], now).level, 2);
  assert.equal(quietingFor([dismissed(3), dismissed(2), dismissed(1)], now).mutedUntil, undefined);
});

test('five dismissals in a row mute the kind for an hour from the last one, doubling after that', () => {
  const five = [5, 4, 3, 2, 0.5].map(dismissed);
  const q = quietingFor(five, now);
  assert.equal(q.mutedUntil, now - 0.5 * HOUR + HOUR);
  const six = [6, 5, 4, 3, 2, 0.5].map(dismissed);
  assert.equal(quietingFor(six, now).mutedUntil, now - 0.5 * HOUR + 2 * HOUR);
  // The mute runs out, but the level stays until an acceptance.
  const old = [9, 8, 7, 6, 5].map(dismissed);
  assert.equal(quietingFor(old, now).mutedUntil, undefined);
  assert.equal(quietingFor(old, now).level, 4);
});

test('an acceptance resets the run; dismissals older than a week are forgiven; order does not matter', () => {
  assert.equal(quietingFor([dismissed(5), dismissed(4), dismissed(3), accepted(2), dismissed(1)], now).level, 0);
  const week = settings.forgetMs / HOUR;
  assert.equal(quietingFor([dismissed(week + 2), dismissed(week + 1), dismissed(1)], now).level, 0);
  const shuffled = [dismissed(1), accepted(5), dismissed(3), dismissed(2)];
  assert.equal(quietingFor(shuffled, now).level, 2);
});

test('quieted thresholds rise with the level and are capped', () => {
  assert.equal(quietedThreshold(0.5, 0), 0.5);
  assert.equal(quietedThreshold(0.5, 2), 0.7);
  assert.equal(quietedThreshold(0.5, 10), 0.95);
  assert.equal(quietedMinimum(10, 0), 10);
  assert.equal(quietedMinimum(10, 2), 20);
});

const code = 'function add(first, second) {\n  const total = first + second;\n  return total * factor;\n}';
const base: DecisionInput = {
  text: code,
  key: 'k1',
  fingerprintCount: 12,
  shape: { lines: 3, tokens: 20, block: true },
  matches: [],
  quieting: { reuse: { level: 0, dismissals: 0 }, save: { level: 0, dismissals: 0 } },
  now,
};
const s = defaultConnectorSettings;

test('trivial copies get no action: too short, only punctuation, a repeat of the last copy', () => {
  assert.equal(trivialReason('x = 1', 'k', undefined, now, s), 'too_short');
  assert.equal(trivialReason('   \n\t   ', 'k', undefined, now, s), 'too_short');
  assert.equal(trivialReason('{ } ( ) ; ; ; => [ ] !== === ...', 'k', undefined, now, s), 'no_code');
  assert.equal(trivialReason(code, 'k1', { key: 'k1', at: now - 60_000 }, now, s), 'repeat');
  assert.equal(trivialReason(code, 'k1', { key: 'k1', at: now - s.repeatWindowMs - 1 }, now, s), undefined);
  assert.equal(trivialReason(code, 'k1', { key: 'k2', at: now - 1 }, now, s), undefined);
  assert.equal(decide({ ...base, fingerprintCount: 3, shape: { lines: 1, tokens: 6, block: false } }, s).kind, 'none');
});

test('a near-duplicate is suggested for reuse, never for saving; something new is suggested for saving', () => {
  const matches = [{ assetId: 'a', score: 0.8, shared: 10 }, { assetId: 'b', score: 0.55, shared: 6 }];
  const reuse = decide({ ...base, matches }, s);
  assert.equal(reuse.kind, 'reuse');
  assert.deepEqual(reuse.matches.map((m) => m.assetId), ['a', 'b']);
  assert.equal(decide(base, s).kind, 'save');
  const reason = (decision: ReturnType<typeof decide>) => [decision.kind, decision.kind === 'none' && decision.reason];
  assert.deepEqual(reason(decide({ ...base, shape: { lines: 1, tokens: 30, block: false } }, s)), ['none', 'not_worth_saving'], 'one line');
  assert.deepEqual(reason(decide({ ...base, shape: { lines: 2, tokens: 9, block: true } }, s)), ['none', 'not_worth_saving'], 'a tiny block');
  assert.deepEqual(reason(decide({ ...base, shape: { lines: 3, tokens: 20, block: false } }, s)), ['none', 'not_worth_saving'], 'a few plain statements');
  assert.equal(decide({ ...base, shape: { lines: 3, tokens: 24, block: false } }, s).kind, 'save', 'a recipe of commands');
});

test('too few fingerprints to compare: no reuse, and saving only when nothing saved resembles the copy', () => {
  const few = { ...base, fingerprintCount: 2 };
  assert.equal(decide(few, s).kind, 'save', 'a small function');
  const matched = decide({ ...few, matches: [{ assetId: 'a', score: 0.9, shared: 2 }] }, s);
  assert.deepEqual([matched.kind, matched.kind === 'none' && matched.reason], ['none', 'too_short']);
  const trivia = decide({ ...few, shape: { lines: 0, tokens: 0, block: false } }, s);
  assert.deepEqual([trivia.kind, trivia.kind === 'none' && trivia.reason], ['none', 'too_short']);
});

test('quieting is applied: a raised reuse threshold drops weak matches, a muted kind stays silent', () => {
  const matches = [{ assetId: 'a', score: 0.65, shared: 8 }];
  const quietReuse = { level: 2, dismissals: 3 };
  const quieted = decide({ ...base, matches, quieting: { ...base.quieting, reuse: quietReuse } }, s);
  assert.deepEqual([quieted.kind, quieted.kind === 'none' && quieted.reason], ['none', 'quieted']);
  const strong = decide({ ...base, matches: [{ assetId: 'a', score: 0.9, shared: 9 }], quieting: { ...base.quieting, reuse: quietReuse } }, s);
  assert.equal(strong.kind, 'reuse');
  const muted = { level: 4, dismissals: 5, mutedUntil: now + HOUR };
  const silentReuse = decide({ ...base, matches, quieting: { ...base.quieting, reuse: muted } }, s);
  assert.deepEqual([silentReuse.kind, silentReuse.kind === 'none' && silentReuse.reason], ['none', 'muted']);
  const silentSave = decide({ ...base, quieting: { ...base.quieting, save: muted } }, s);
  assert.deepEqual([silentSave.kind, silentSave.kind === 'none' && silentSave.reason], ['none', 'muted']);
  // Save quieting asks for bigger snippets.
  const shape = { lines: 3, tokens: 16, block: true };
  const quietSave = decide({ ...base, shape, quieting: { ...base.quieting, save: { level: 1, dismissals: 2 } } }, s);
  assert.equal(quietSave.kind, 'save');
  const tooSmall = decide({ ...base, shape, quieting: { ...base.quieting, save: { level: 2, dismissals: 3 } } }, s);
  assert.deepEqual([tooSmall.kind, tooSmall.kind === 'none' && tooSmall.reason], ['none', 'quieted']);
});
