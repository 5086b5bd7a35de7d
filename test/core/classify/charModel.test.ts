/**
 * The character model tried in issue 31's fifth pass (test/bench/languages/charModel.ts and
 * trainChars.ts, docs/languages.md; not shipped): its file round trips and is refused when damaged,
 * it reads lines as documented, and training on a few snippets of two languages tells a third
 * snippet's language, so the figures charBlend.ts prints come from a model that works.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CharModel, decodeCharModel, encodeCharModel, forEachBucket, type CharForm } from '../../bench/languages/charModel.ts';
import { trainChars } from '../../bench/languages/trainChars.ts';

test('a model file round trips, and a damaged one is refused with a clear error', () => {
  const data = { bits: 8, form: 'masked' as const, languages: ['c', 'py'], scale: 0.5, intercepts: Float32Array.of(0.25, -0.25), weights: Int8Array.from({ length: 512 }, (_, i) => (i % 255) - 127) };
  const bytes = encodeCharModel(data);
  const back = decodeCharModel(bytes);
  assert.deepEqual(back.languages, data.languages);
  assert.equal(back.bits, 8);
  assert.equal(back.form, 'masked');
  assert.equal(back.scale, 0.5);
  assert.deepEqual([...back.intercepts], [...data.intercepts]);
  assert.deepEqual([...back.weights], [...data.weights]);
  assert.throws(() => decodeCharModel(bytes.subarray(0, bytes.length - 1)), /expected/);
  const wrongMagic = Uint8Array.from(bytes);
  wrongMagic[0] = 0;
  assert.throws(() => decodeCharModel(wrongMagic), /magic/);
});

const bucketsOf = (text: string, form: CharForm = 'plain'): number[] => {
  const found: number[] = [];
  forEachBucket(text, 16, new Uint32Array(1 << 16), 1, (bucket) => found.push(bucket), form);
  return found.sort((a, b) => a - b);
};

test('n-grams are counted once each, lines are read with their start and end, and whitespace runs are one space', () => {
  const once = bucketsOf('abab');
  assert.equal(new Set(once).size, once.length);
  assert.deepEqual(bucketsOf('x  =   1'), bucketsOf('x = 1'));
  assert.deepEqual(bucketsOf('a\nb'), bucketsOf('b\na'));
  assert.notDeepEqual(bucketsOf('ab'), bucketsOf('ba'));
  assert.notDeepEqual(bucketsOf('ab'), bucketsOf('  ab'), 'indentation is read');
  assert.deepEqual(bucketsOf('  \n\n'), []);
});

test('masked, the names a package chose read alike and keywords as written', () => {
  assert.deepEqual(bucketsOf('let userName = fetchItems(x);', 'masked'), bucketsOf('let otherThing = loadRows(x);', 'masked'));
  assert.deepEqual(bucketsOf('MyClass.Run()', 'masked'), bucketsOf('Other.Start()', 'masked'));
  assert.notDeepEqual(bucketsOf('let a = 1', 'masked'), bucketsOf('var a = 1', 'masked'));
  assert.notDeepEqual(bucketsOf('userName', 'plain'), bucketsOf('otherThing', 'plain'));
});

test('trained on a few snippets of two languages, it tells a new one apart', () => {
  const python = ['def add(a, b):\n    return a + b\n', 'for item in items:\n    print(item)\n', 'class Box:\n    def __init__(self):\n        self.items = []\n', 'import os\nprint(os.getcwd())\n'];
  const c = ['int add(int a, int b) {\n  return a + b;\n}\n', '#include <stdio.h>\nint main(void) {\n  printf("hi\\n");\n}\n', 'for (int i = 0; i < n; i++) {\n  total += v[i];\n}\n', 'struct box {\n  int size;\n};\n'];
  const snippets = [...python.map((text, i) => ({ language: 'py', size: 'short' as const, source: `p${i}/a.py:1`, text })), ...c.map((text, i) => ({ language: 'c', size: 'short' as const, source: `c${i}/a.c:1`, text }))];
  const model = new CharModel(trainChars(snippets));
  const top = (text: string): string => {
    const { languages, logits } = model.score(text);
    return languages[logits.indexOf(Math.max(...logits))]!;
  };
  assert.equal(top('def total(values):\n    return sum(values)\n'), 'py');
  assert.equal(top('int total(int *v, int n) {\n  return v[0];\n}\n'), 'c');
  assert.ok(model.score('').logits.every(Number.isFinite));
});
