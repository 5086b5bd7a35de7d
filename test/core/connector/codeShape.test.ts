import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFacts } from '../../../src/core/connector/copyFacts.ts';
import { fingerprints, normalizedKey } from '../../../src/core/connector/fingerprint.ts';

const shape = (text: string) => copyFacts(text).shape;

test('lines of code are counted; closers, imports, log calls, constants, comments and data are not', () => {
  assert.deepEqual(shape('fn total(items: &[u32]) -> u32 {\n    items.iter().sum()\n}'), { lines: 2, tokens: 23, block: true });
  assert.equal(shape('import os\nfrom a import b\n#include <stdio.h>\nusing System;\nconst fs = require("fs");').lines, 0);
  assert.equal(shape('console.log(x);\nlogger.info("y")\nprintln!("{}", z);\nfmt.Println(w)\necho "done"').lines, 0);
  assert.equal(shape('x = 1\nconst MAX = -5;\nname := "x"\ni += 1').lines, 0);
  assert.equal(shape('  });\n}\nend\nfi\n// a comment\n"fmt"\n1, 2, 3,').lines, 0);
  // Look-alikes that are code: a C# using statement, a call with an argument, a Rust loop.
  assert.equal(shape('using (var file = File.OpenRead(path)) {').lines, 1);
  assert.equal(shape('x = compute(1)').lines, 1);
  assert.deepEqual(shape('loop {'), { lines: 1, tokens: 2, block: true });
});

test('a definition or an opened block marks a block; plain statements do not', () => {
  assert.equal(shape('def area(w, h):\n    return w * h').block, true);
  assert.equal(shape('const twice = (n) =>\n  n * 2;').block, true);
  assert.equal(shape('for f in *.log; do\n  gzip "$f"\ndone').block, true);
  assert.equal(shape('const a = first(x);\nconst b = second(a, fn);').block, false);
});

test('copy facts are the fingerprints and key of the same text', () => {
  const text = 'function area(width, height) {\n  return width * height;\n}';
  const facts = copyFacts(text);
  assert.deepEqual(facts.prints, fingerprints(text));
  assert.equal(facts.key, normalizedKey(text));
});
