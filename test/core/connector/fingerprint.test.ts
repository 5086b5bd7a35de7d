import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tokenize, fingerprints, similarity, sharedCount, normalizedKey } from '../../../src/core/connector/fingerprint.ts';

test('tokens ignore comments, whitespace and quote style; identifiers are kept; numbers and long strings fold', () => {
  const a = tokenize(`// header comment\nconst total = price * 3; /* why */ # not a comment in JS but stripped\nlog('hi')`);
  assert.deepEqual(a, ['const', 'total', '=', 'price', '*', 'NUM', ';', 'log', '(', '"hi', ')']);
  assert.deepEqual(tokenize('log("hi")'), tokenize("log('hi')"));
  assert.deepEqual(tokenize(`x = "${'a'.repeat(40)}"`), ['x', '=', 'STR']);
  assert.deepEqual(tokenize('#include <stdio.h>'), ['#', 'include', '<', 'stdio', '.', 'h', '>']);
  assert.deepEqual(tokenize('a /* cut off'), ['a']);
  assert.deepEqual(tokenize('url = "http://x.y//z"'), ['url', '=', '"http://x.y//z']);
});

const code = `function area(width, height) {
  // the area of a rectangle
  const result = width * height;
  if (result < 0) throw new Error('negative');
  return result;
}`;

test('a reformatted, re-commented copy has the same fingerprints and key; other code shares none', () => {
  const again = `function area ( width , height ) { const result = width*height ;
    /* changed comment */ if(result<0) throw new Error("negative") ; return result ; }`;
  assert.deepEqual(fingerprints(again), fingerprints(code));
  assert.equal(normalizedKey(again), normalizedKey(code));
  const other = fingerprints('for (const item of basket.items) { subtotal += item.price * item.quantity; }');
  assert.equal(sharedCount(fingerprints(code), other), 0);
  assert.ok(fingerprints(code).length >= 4);
});

test('similarity is Jaccard or 0.9 × containment, whichever is higher', () => {
  assert.equal(similarity(10, 10, 10), 1);
  assert.equal(similarity(5, 5, 50), 0.9); // a part of a saved snippet
  assert.equal(similarity(5, 50, 5), 0.9); // a saved snippet inside a larger copy
  assert.equal(similarity(0, 5, 5), 0);
  assert.ok(Math.abs(similarity(2, 10, 10) - 0.18) < 1e-9);
});
