import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseSave, parseSearch, ToolInputError } from '../../../src/extension/agents/toolInput.ts';
import { clampLimit } from '../../../src/extension/agents/snippetOperations.ts';
import { specificFromLanguageName as toSpecific } from '../../../src/core/classify/languages.ts';

test('search input: query and/or tags, optional language and limit', () => {
  assert.deepEqual(parseSearch({ query: 'retry', limit: 3 }), { query: 'retry', limit: 3 });
  assert.deepEqual(parseSearch({ query: '', tags: ['http'] }), { query: '', tags: ['http'] });
  assert.throws(() => parseSearch({ query: '  ' }), ToolInputError);
  assert.throws(() => parseSearch({ query: 'x', tags: 'http' }), /"tags" must be an array of strings/);
  assert.throws(() => parseSearch({ query: 'x', limit: 'many' }), /"limit" must be a number/);
  assert.throws(() => parseSearch(null), /JSON object/);
  assert.throws(() => parseSearch([]), /JSON object/);
});

test('save input: content required and non-blank; name, tags, language optional', () => {
  assert.deepEqual(parseSave({ content: 'x()', name: 'X', tags: ['a'], language: 'ts' }), { content: 'x()', name: 'X', tags: ['a'], language: 'ts' });
  assert.deepEqual(parseSave({ content: 'x()' }), { content: 'x()' });
  assert.throws(() => parseSave({}), /"content" is required/);
  assert.throws(() => parseSave({ content: ' \n' }), /"content" must not be empty/);
  assert.throws(() => parseSave({ content: 42 }), /"content" must be a string/);
});

test('limits are clamped to 1..50, defaulting to 10', () => {
  assert.equal(clampLimit(undefined), 10);
  assert.equal(clampLimit(0), 1);
  assert.equal(clampLimit(1e9), 50);
  assert.equal(clampLimit(7.9), 7);
  assert.equal(clampLimit(Number.NaN), 10);
});

test('languages as agents spell them become the server\'s specific ids; unknown ones are left to detection', () => {
  assert.equal(toSpecific('typescript'), 'ts');
  assert.equal(toSpecific('TS'), 'ts');
  assert.equal(toSpecific('Python'), 'py');
  assert.equal(toSpecific('klingon'), undefined);
});
