/**
 * The neural classifier of issue 31's fifth pass (test/bench/languages/neuralModel.ts, not shipped:
 * docs/languages.md) and the extra score source it plugs into (combination.ts, decision.ts): its
 * file format round-trips, a damaged file is refused, and the decision counts an extra source with
 * its weight.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tunedCombination, combine } from '../../../src/core/classify/combination.ts';
import { chooseLanguage } from '../../../src/core/classify/decision.ts';
import { encodeNeuralModel, NeuralModel, neuralFeatures, type NeuralWeights } from '../../bench/languages/neuralModel.ts';

function randomWeights(hidden: number): NeuralWeights {
  let state = 12345;
  const random = (): number => ((state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32) * 2 - 1;
  const buckets = 64;
  const dim = 8;
  const languages = ['c', 'py', 'rs'];
  const width = hidden > 0 ? hidden : dim;
  const floats = (count: number): Float32Array => Float32Array.from({ length: count }, random);
  return { shape: { languages, buckets, dim, hidden }, embeddings: floats(buckets * dim), w1: floats(hidden * dim), b1: floats(hidden), w2: floats(languages.length * width), b2: floats(languages.length) };
}

/** The model's answer computed in floats, without quantization. */
function reference(weights: NeuralWeights, text: string): number[] {
  const { dim, hidden, buckets, languages } = weights.shape;
  const features = neuralFeatures(text, buckets);
  const sum = new Array<number>(dim).fill(0);
  for (const row of features) for (let d = 0; d < dim; d++) sum[d]! += weights.embeddings[row * dim + d]!;
  const pooled = sum.map((value) => value / Math.sqrt(features.length));
  const input = hidden > 0 ? Array.from({ length: hidden }, (_, h) => Math.max(0, pooled.reduce((acc, value, d) => acc + value * weights.w1[h * dim + d]!, weights.b1[h]!))) : pooled;
  const logits = languages.map((_, l: number) => input.reduce((acc: number, value: number, k: number) => acc + value * weights.w2[l * input.length + k]!, weights.b2[l]!));
  const top = Math.max(...logits);
  const log = top + Math.log(logits.reduce((acc: number, value: number) => acc + Math.exp(value - top), 0));
  return logits.map((value: number) => value - log);
}

for (const hidden of [0, 5]) {
  test(`a model written with int8 embeddings reads back and scores as its float weights do (hidden ${hidden})`, () => {
    const weights = randomWeights(hidden);
    const model = new NeuralModel(encodeNeuralModel(weights));
    assert.deepEqual(model.languages, ['c', 'py', 'rs']);
    const text = 'def first():\n    return 1\n\nint main(void) { return 0; }\n';
    const got = model.score(text).logProbabilities;
    const want = reference(weights, text);
    for (let l = 0; l < want.length; l++) assert.ok(Math.abs(got[l]! - want[l]!) < 0.05, `${got[l]} against ${want[l]}`);
    assert.ok(Math.abs(got.reduce((acc: number, value: number) => acc + Math.exp(value), 0) - 1) < 1e-9, 'a distribution');
  });
}

test('a damaged model file is refused, not read as weights', () => {
  const bytes = encodeNeuralModel(randomWeights(5));
  assert.throws(() => new NeuralModel(bytes.subarray(0, bytes.length - 1)), /does not match|truncated/);
  assert.throws(() => new NeuralModel(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8])), /not a Satchel neural model/);
  const extra = new Uint8Array(bytes.length + 4);
  extra.set(bytes);
  assert.throws(() => new NeuralModel(extra), /does not match/);
});

test('chooseLanguage adds an extra score source with its weight, and ignores it at weight 0', () => {
  const text = 'def first():\n    return 1\n\nvalue = first()\nprint(value)\n';
  const rust = (): { languages: string[]; logProbabilities: Float64Array } => ({ languages: ['py', 'rs'], logProbabilities: Float64Array.from([-50, 0]) });
  assert.equal(chooseLanguage(text, []).specific, 'py');
  assert.equal(chooseLanguage(text, [], undefined, { ...tunedCombination, extraWeight: 1 }, rust).specific, 'rs');
  assert.equal(chooseLanguage(text, [], undefined, { ...tunedCombination, extraWeight: 0 }, rust).specific, 'py');
  // A trained model's scores plug in as they are.
  const model = new NeuralModel(encodeNeuralModel(randomWeights(5)));
  assert.equal(chooseLanguage(text, [], undefined, { ...tunedCombination, extraWeight: 0.01 }, (input) => model.score(input)).specific, 'py');
});

test('an extra score counts with its weight, and a language it was not trained on gets its least', () => {
  const scores = { languages: ['c', 'py'] as const, logLikelihoods: Float64Array.from([0, 0]), known: 5 };
  const extra = { languages: ['py'], logProbabilities: Float64Array.from([-0.01]) };
  const none = { temperature: 4, modelWeight: 0, foreignConfidence: 0.5, bias: { c: 0.1 } };
  assert.equal(combine(scores, [], none, extra).specific, 'c');
  assert.equal(combine(scores, [], { ...none, extraWeight: 1 }, { languages: ['c', 'py'], logProbabilities: Float64Array.from([-3, -0.05]) }).specific, 'py');
  assert.equal(combine(scores, [], { ...none, extraWeight: 1 }, extra).specific, 'c');
});
