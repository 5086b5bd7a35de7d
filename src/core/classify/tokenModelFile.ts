/**
 * The shipped token model read from its file (dist/tokenModel.json, 4.9 MB), its shape checked as
 * it is read: a file from another build, cut short or edited fails here, naming what is wrong,
 * instead of scoring NaN later. The check is of the structure (a few dozen languages and four
 * strings: well under a millisecond); the 60,000 tokens' pairs are checked where they are read.
 *
 * On the host's thread it is read asynchronously and built a part at a time (tokenModel.ts): read,
 * parsed and built in one go it held the host's event loop 118–247 ms on the first classification
 * (docs/languages.md); the classifier's worker, which has nothing else to do, reads it in one go.
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { buildTokenModel, TokenModel, type TokenModelData } from './tokenModel.ts';
import { tokenModelFile } from './classifierFiles.ts';
import { isRecord } from '../plainObjects.ts';

function isNames(value: unknown): value is string[] {
  return Array.isArray(value) && value.length > 0 && value.length <= 256 && value.every((item) => typeof item === 'string');
}

function isNumbers(value: unknown, length: number): value is number[] {
  return Array.isArray(value) && value.length === length && value.every((item) => typeof item === 'number' && Number.isFinite(item));
}

/** `value` (the parsed file) as a model's data, or an error naming the first field that is not as train.ts writes it. */
export function tokenModelData(value: unknown): TokenModelData {
  if (!isRecord(value)) throw new Error('The token model is not a JSON object');
  const { languages, documents, tokens, counts, weights, intercepts } = value;
  if (!isNames(languages)) throw new Error('The token model\'s "languages" is not a list of 1 to 256 names');
  if (!isNumbers(documents, languages.length)) throw new Error('The token model\'s "documents" is not a number for each language');
  if (typeof tokens !== 'string' || typeof counts !== 'string') throw new Error('The token model\'s "tokens" or "counts" is not a string');
  if (weights !== undefined && typeof weights !== 'string') throw new Error('The token model\'s "weights" is not a string');
  if (intercepts !== undefined && !isNumbers(intercepts, languages.length)) throw new Error('The token model\'s "intercepts" is not a number for each language');
  return { languages, documents, tokens, counts, ...(weights !== undefined ? { weights } : {}), ...(intercepts !== undefined ? { intercepts } : {}) };
}

/** The model, read and built in one go (a worker thread, tests). */
export function readTokenModel(file = tokenModelFile()): TokenModel {
  return new TokenModel(tokenModelData(JSON.parse(readFileSync(file, 'utf8'))));
}

/** The model, read off the event loop and parsed and built a part at a time, a turn of the loop each. */
export async function loadTokenModel(file = tokenModelFile()): Promise<TokenModel> {
  const text = await readFile(file, 'utf8');
  await nextTurn();
  const data = tokenModelData(JSON.parse(text));
  await nextTurn();
  return buildTokenModel(data, () => nextTurn());
}
