import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { buildTokenModel, TokenModel, tokensOf, type TokenModelData } from '../../../src/core/classify/tokenModel.ts';
import { chooseLanguage, setTokenModelIdleMsForTests, tokenModelHeld, tokenModelReady } from '../../../src/core/classify/decision.ts';
import { loadTokenModel, readTokenModel, tokenModelData } from '../../../src/core/classify/tokenModelFile.ts';
import { tempDir } from '../../support/helpers.ts';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tokenModelFile } from '../../../src/core/classify/classifierFiles.ts';

/** The scores as the model defines them, from the pairs read the plain way (a reference for the packed arrays). */
function reference(data: TokenModelData, text: string): { known: number; scores: number[] } {
  return referenceModel(data)(text);
}

function referenceModel(data: TokenModelData, smoothing = 5, weight = 0.4): (text: string) => { known: number; scores: number[] } {
  const pairs = (line: string | undefined): number[] => (line === undefined || line === '' ? [] : line.split(/[ :]/).map(Number));
  const counts = data.counts.split('\n');
  const weights = data.weights?.split('\n');
  const rows = new Map(data.tokens.split('\n').map((token, i) => [token, { counts: pairs(counts[i]), weights: pairs(weights?.[i]) }]));
  const logDocuments = data.documents.map((count) => Math.log(count + 2 * smoothing));
  const unseen = logDocuments.map((logTotal) => Math.log(smoothing) - logTotal);
  return (text) => {
    const scores = (data.intercepts ?? data.languages.map(() => 0)).map((value) => value * weight);
    let known = 0;
    for (const token of tokensOf(text)) {
      const row = rows.get(token);
      if (!row) continue;
      known++;
      for (let i = 0; i < row.weights.length; i += 2) scores[row.weights[i]!]! += row.weights[i + 1]! * weight;
      for (let l = 0; l < scores.length; l++) scores[l]! += unseen[l]!;
      for (let i = 0; i < row.counts.length; i += 2) scores[row.counts[i]!]! += Math.log(row.counts[i + 1]! + smoothing) - logDocuments[row.counts[i]!]! - unseen[row.counts[i]!]!;
    }
    return { known, scores };
  };
}

const small: TokenModelData = {
  languages: ['py', 'js', 'rs'],
  documents: [10, 20, 5],
  // `fn` has no pairs at all; the last line of weights is missing.
  tokens: ['def', 'fn', 'const', 'return', ':$'].join('\n'),
  counts: ['0:9 2:1', '', '1:15 2:3', '0:8 1:12 2:4', '0:10'].join('\n'),
  weights: ['0:12 1:-3', '', '1:7 0:-11', '2:-2'].join('\n'),
  intercepts: [1, -2, 3],
};

test('the packed model scores as its pairs say, weights negative or missing included', () => {
  const model = new TokenModel(small);
  for (const text of ['def f():\n    return 1', 'const x = 1;\nreturn x', 'fn main() {}', 'nothing known here']) {
    const got = model.score(text);
    const want = reference(small, text);
    assert.equal(got.known, want.known, text);
    assert.deepEqual([...got.logLikelihoods], want.scores, text);
  }
});

test('a model trained without the regression scores by naive Bayes alone', () => {
  const { weights: _weights, intercepts: _intercepts, ...bayes } = small;
  const model = new TokenModel(bayes);
  const want = reference(bayes, 'const x = 1;\nreturn x');
  assert.deepEqual([...model.score('const x = 1;\nreturn x').logLikelihoods], want.scores);
});

test('the shipped model, packed, scores the held-out snippets exactly as its pairs say', () => {
  const shipped = JSON.parse(readFileSync(tokenModelFile(), 'utf8')) as TokenModelData;
  const model = new TokenModel(shipped);
  const plain = referenceModel(shipped);
  const snippets = (JSON.parse(readFileSync(new URL('../../bench/languages/heldout.json', import.meta.url), 'utf8')) as Array<{ text: string }>).slice(0, 60);
  for (const { text } of snippets) {
    const want = plain(text);
    const got = model.score(text);
    assert.equal(got.known, want.known);
    assert.deepEqual([...got.logLikelihoods], want.scores);
  }
});

test('the token model is read from its file when first used and let go once idle', async (t) => {
  t.after(() => setTokenModelIdleMsForTests());
  // Wide margins: timers run late on a loaded machine.
  setTokenModelIdleMsForTests(2_000);
  assert.equal(tokenModelHeld(), false);
  const python = 'def fetch_rows(cursor, limit):\n    rows = cursor.fetchmany(limit)\n    return [row for row in rows if row]\n';
  const first = chooseLanguage(python, []);
  assert.equal(first.specific, 'py');
  assert.equal(tokenModelHeld(), true);
  // Each use keeps it another idle period: held 2.2 s after the first use, 1.1 s after the last.
  await new Promise((resolve) => setTimeout(resolve, 1_100));
  chooseLanguage(python, []);
  await new Promise((resolve) => setTimeout(resolve, 1_100));
  assert.equal(tokenModelHeld(), true);
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  assert.equal(tokenModelHeld(), false);
  // Read again on the next use, with the same answer.
  assert.deepEqual(chooseLanguage(python, []), first);
  assert.equal(tokenModelHeld(), true);
});

test('the model file is checked for shape as it is read; a pair naming a language the model lacks is refused', () => {
  const shipped: unknown = JSON.parse(readFileSync(tokenModelFile(), 'utf8'));
  const data = tokenModelData(shipped);
  assert.equal(data.languages.length, 27);
  const wrong: Array<[unknown, RegExp]> = [
    [[], /not a JSON object/],
    [{ ...small, languages: ['py', 3, 'rs'] }, /"languages"/],
    [{ ...small, languages: [] }, /"languages"/],
    [{ ...small, documents: [10, 20] }, /"documents"/],
    [{ ...small, documents: [10, '20', 5] }, /"documents"/],
    [{ ...small, tokens: ['def'] }, /"tokens" or "counts"/],
    [{ ...small, counts: undefined }, /"tokens" or "counts"/],
    [{ ...small, weights: 7 }, /"weights"/],
    [{ ...small, intercepts: [1, 2] }, /"intercepts"/],
  ];
  for (const [value, message] of wrong) assert.throws(() => tokenModelData(value), message, JSON.stringify(value));
  assert.deepEqual(tokenModelData(small), small);
  assert.throws(() => new TokenModel({ ...small, counts: '0:9 3:1' }), /language 3 of 3/);
  assert.throws(() => new TokenModel({ ...small, weights: '7:1' }), /language 7 of 3/);
});

test('read in one go or a part at a time, the model scores alike; a bad file is refused either way', async () => {
  const parted = await loadTokenModel();
  const whole = readTokenModel();
  const snippets = (JSON.parse(readFileSync(new URL('../../bench/languages/heldout.json', import.meta.url), 'utf8')) as Array<{ text: string }>).slice(0, 30);
  for (const { text } of snippets) assert.deepEqual(parted.score(text), whole.score(text));
  const dir = tempDir('satchel-token-model-');
  const bad = join(dir, 'tokenModel.json');
  writeFileSync(bad, JSON.stringify({ ...small, documents: 'many' }));
  assert.throws(() => readTokenModel(bad), /"documents"/);
  await assert.rejects(loadTokenModel(bad), /"documents"/);
});

test('built on the host a slice at a time: a pause every 10,000 tokens of the index and of each pairs, the same model', async () => {
  const data = tokenModelData(JSON.parse(readFileSync(tokenModelFile(), 'utf8')));
  const tokens = data.tokens.split('\n').length;
  let pauses = 0;
  const built = await buildTokenModel(data, async () => {
    pauses++;
  });
  // The index, the counts and the weights each pause once a slice, and once between them.
  assert.ok(pauses >= 3 * Math.floor(tokens / 10_000), `${pauses} pauses for ${tokens} tokens`);
  const whole = readTokenModel();
  for (const text of ['def f(x):\n    return x\n', 'fn main() {\n    println!("hi");\n}\n']) assert.deepEqual(built.score(text), whole.score(text));
});

test('callers that await the token model together share one read, and it is held after', async (t) => {
  t.after(() => setTokenModelIdleMsForTests());
  setTokenModelIdleMsForTests(60_000);
  assert.equal(tokenModelHeld(), false);
  const [a, b] = await Promise.all([tokenModelReady(), tokenModelReady()]);
  assert.equal(a, b);
  assert.equal(tokenModelHeld(), true);
  assert.equal(await tokenModelReady(), a);
});
