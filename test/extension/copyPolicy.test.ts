import { test } from 'node:test';
import assert from 'node:assert/strict';
import { reuseMatch, worthAsking } from '../../src/extension/copyPolicy.ts';
import type { Asset, Suggestion } from '../../src/core/piecesTypes.ts';

const asset = (id: string) => ({ id }) as Asset;

function suggestion(scores: Record<string, number>, suggested = true): Suggestion {
  const iterable = Object.keys(scores).map(asset);
  return {
    reuse: { suggested, assets: { iterable } },
    save: { suggested: false },
    target: { seed: {}, vector: 0 },
    assets: { iterable },
    distribution: scores,
  } as Suggestion;
}

test("a copy shorter than this window's minimum (non-whitespace characters) is not asked about", () => {
  assert.equal(worthAsking('  a b \n c ', { minLength: 4, reuseThreshold: 0.5 }), false);
  assert.equal(worthAsking('  a b \n cd ', { minLength: 4, reuseThreshold: 0.5 }), true);
  assert.equal(worthAsking(' \n\t ', { minLength: 1, reuseThreshold: 0.5 }), false);
});

test("a reuse suggestion keeps only assets as similar as this window's threshold asks", () => {
  const reply = suggestion({ a: 0.6, b: 0.9 });
  assert.equal(reuseMatch(reply, { minLength: 1, reuseThreshold: 0.5 })?.id, 'a', 'the host order is kept');
  assert.equal(reuseMatch(reply, { minLength: 1, reuseThreshold: 0.8 })?.id, 'b');
  assert.equal(reuseMatch(reply, { minLength: 1, reuseThreshold: 0.95 }), undefined);
  assert.equal(reuseMatch(suggestion({ a: 0.9 }, false), { minLength: 1, reuseThreshold: 0.1 }), undefined, 'no reuse suggested');
});
