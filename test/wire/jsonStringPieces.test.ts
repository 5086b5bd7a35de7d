import { test } from 'node:test';
import assert from 'node:assert/strict';
import { jsonStringPieces } from '../../src/wire/jsonStringPieces.ts';

test('the pieces join into what JSON.stringify writes for the whole, a surrogate pair never cut', () => {
  const pair = '\u{1F600}';
  // Pairs at every offset around the piece ends, lone halves, control characters, quotes and backslashes.
  const texts = [
    '',
    'abc',
    `${'a'.repeat(7)}${pair}${'b'.repeat(9)}`,
    pair.repeat(20),
    `x${pair.repeat(20)}`,
    '\ud800 lone high, lone low \udc00, \u0000\u001f"\\\n\t end',
    Array.from({ length: 200 }, (_, i) => (i % 3 === 0 ? pair : String.fromCharCode(i))).join(''),
  ];
  for (const text of texts) {
    for (const size of [1, 2, 3, 8, 1024]) {
      const pieces = [...jsonStringPieces(text, size)];
      assert.equal(`"${pieces.join('')}"`, JSON.stringify(text), `size ${size}: ${JSON.stringify(text).slice(0, 40)}`);
      for (const piece of pieces) assert.ok(!/\\ud[89ab][0-9a-f]{2}$/.test(piece) || text.includes('\ud800'), `a piece ends in an escaped high surrogate at size ${size}`);
      // Each piece holds at most `size` characters of the text (a pair kept whole: two).
      assert.ok(pieces.every((piece) => JSON.parse(`"${piece}"`).length <= Math.max(size, 2)), `size ${size}`);
      assert.ok(pieces.every((piece) => piece !== ''), 'no empty piece');
    }
  }
});
