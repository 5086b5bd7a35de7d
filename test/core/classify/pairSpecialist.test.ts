/**
 * The pair specialists of issue 31's seventh pass (test/bench/languages/pairModel.ts, not shipped:
 * docs/languages.md) and the seam they plug into: the combination names its runner-up and margin,
 * chooseLanguage lets a pair decider choose between the first two, and the corrections apply after
 * it; a specialist trained on two languages' snippets tells them apart by what only one has.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { combine } from '../../../src/core/classify/combination.ts';
import { chooseLanguage } from '../../../src/core/classify/decision.ts';
import type { BenchSnippet } from '../../bench/languages/benchSet.ts';
import { PairModel, pairFeaturesOf, trainPair } from '../../bench/languages/pairModel.ts';

test('the combination names its runner-up and how far behind it is', () => {
  const scores = { languages: ['c', 'cpp', 'py'] as const, logLikelihoods: Float64Array.from([8, 4, 0]), known: 5 };
  const none = { temperature: 4, modelWeight: 0, foreignConfidence: 0.5 };
  const guess = combine(scores, [], none);
  assert.equal(guess.specific, 'c');
  assert.equal(guess.runnerUp, 'cpp');
  assert.equal(guess.margin, 1);
  const flipped = combine(scores, [], { ...none, bias: { cpp: 1.5 } });
  assert.equal(flipped.specific, 'cpp');
  assert.equal(flipped.runnerUp, 'c');
  assert.equal(flipped.margin, 0.5);
});

test('a pair decider chooses between the first two, its absence or undefined leaves the answer, and the corrections follow it', () => {
  const text = 'def first():\n    return 1\n\nvalue = first()\nprint(value)\n';
  const seen: string[] = [];
  const plain = chooseLanguage(text, []).specific;
  assert.equal(plain, 'py');
  const decided = chooseLanguage(text, [], undefined, undefined, undefined, (_, first, second, margin) => {
    seen.push(first, second);
    assert.ok(margin >= 0);
    return second;
  });
  assert.equal(seen[0], 'py');
  assert.notEqual(decided.specific, 'py');
  assert.equal(decided.specific, seen[1]);
  assert.equal(chooseLanguage(text, [], undefined, undefined, undefined, () => undefined).specific, 'py');
  // JavaScript with a type annotation is TypeScript whoever chose JavaScript.
  const typed = 'const answer: number = compute(input);\nconsole.log(answer);\nexport default answer;\nconst other = 2;\n';
  assert.equal(chooseLanguage(typed, [], undefined, undefined, undefined, () => 'js').specific, 'ts');
});

test('a specialist trained on two languages tells them apart by what only one has, in either direction', () => {
  const c = 'int total = 0;\nfor (i = 0; i < n; i++) {\n  total += values[i];\n}\nprintf("%d\\n", total);\n';
  const cpp = 'std::vector<int> values;\nfor (auto& value : values) {\n  total += value;\n}\nstd::cout << total << std::endl;\n';
  const snippets: BenchSnippet[] = [];
  for (let i = 0; i < 20; i++) {
    snippets.push({ language: 'c', size: 'short', source: `libc${i}/a.c:1`, text: c.replace('total', `total${i % 3}`) });
    snippets.push({ language: 'cpp', size: 'short', source: `libcpp${i}/a.cpp:1`, text: cpp.replace('values', `values${i % 3}`) });
  }
  const model = new PairModel(trainPair(snippets, ['c', 'cpp'], 'tokens'));
  assert.ok(model.score('std::cout << std::endl;\nstd::vector<int> v;\n') > 0, 'C++ scores toward the second language');
  assert.ok(model.score('printf("%d\\n", total);\nfor (i = 0; i < n; i++) {\n') < 0, 'C toward the first');
  const reversed = new PairModel(trainPair(snippets, ['cpp', 'c'], 'tokens'));
  assert.ok(reversed.score('std::cout << std::endl;\n') < 0);
  // Naive Bayes's log-odds added to the regression's weights push the same way, further.
  const plain = trainPair(snippets, ['c', 'cpp'], 'tokens', { scale: 100, shortOnly: false, naiveBayes: 0 });
  const withBayes = trainPair(snippets, ['c', 'cpp'], 'tokens', { scale: 100, shortOnly: false, naiveBayes: 0.25 });
  assert.ok(withBayes.weights.length > plain.weights.length, 'every feature of the vocabulary gets a weight');
  const cout = 'std::cout << total << std::endl;\n';
  assert.ok(new PairModel(withBayes).score(cout) > new PairModel(plain).score(cout));
  assert.ok(new PairModel(plain).score(cout) > 0);
});

test('the richer feature kinds read what the tokens do and more', () => {
  const text = 'let x: string = "a";\n';
  const tokens = pairFeaturesOf('tokens')(text);
  for (const kind of ['trigrams', 'chars'] as const) {
    const richer = pairFeaturesOf(kind)(text);
    for (const token of tokens) assert.ok(richer.has(token), `${kind} keeps ${token}`);
    assert.ok(richer.size > tokens.size, `${kind} adds features`);
  }
  assert.ok(pairFeaturesOf('trigrams')(text).has('Tx : string'));
});
