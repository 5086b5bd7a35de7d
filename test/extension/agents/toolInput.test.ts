import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDelete, parseSave, parseSearch, parseUpdate, ToolInputError } from '../../../src/extension/agents/toolInput.ts';
import { clampLimit } from '../../../src/extension/agents/snippetOperations.ts';
import { specificFromLanguageName as toSpecific } from '../../../src/core/classify/languages.ts';
import { LIMITS } from '../../../src/core/limits.ts';

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

test('save input over the store limits is refused before the user is asked to confirm, naming the limit', () => {
  const over = (input: Record<string, unknown>, message: RegExp) =>
    assert.throws(() => parseSave({ content: 'x()', ...input }), (error: unknown) => error instanceof ToolInputError && message.test(error.message));
  over({ content: 'x'.repeat(LIMITS.contentChars + 1) }, /text content has 4,194,305 characters; the limit is 4,194,304/);
  over({ name: 'n'.repeat(LIMITS.nameChars + 1) }, /A name has 513 characters/);
  over({ tags: Array.from({ length: LIMITS.tagsPerAsset + 1 }, (_, i) => `t${i}`) }, /A snippet has 129 tags; the limit is 128/);
  over({ tags: ['t'.repeat(LIMITS.tagChars + 1)] }, /A tag has 257 characters/);
  const atLimit = Array.from({ length: LIMITS.tagsPerAsset }, (_, i) => `t${i}`);
  assert.deepEqual(parseSave({ content: 'x()', tags: [...atLimit, 'T0'] }).tags?.length, LIMITS.tagsPerAsset + 1, 'a repeat is not one more tag');
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

test('update input: id and the revision read required (either spelling), at least one field, each within the store limits', () => {
  assert.deepEqual(parseUpdate({ id: 'a', expectedRevision: 'r1', name: ' New ', tags: ['x'] }), { id: 'a', expectedRevision: 'r1', name: 'New', tags: ['x'] });
  assert.deepEqual(parseUpdate({ id: 'a', expected_revision: 'r1', description: '' }), { id: 'a', expectedRevision: 'r1', description: '' }, "'' removes the description");
  assert.throws(() => parseUpdate({ id: 'a', name: 'x' }), /"expectedRevision" is required: the revision satchel_get_snippet gave/);
  assert.throws(() => parseUpdate({ expectedRevision: 'r1', name: 'x' }), /"id" is required/);
  assert.throws(() => parseUpdate({ id: 'a', expectedRevision: 'r1' }), /Nothing to change/);
  assert.throws(() => parseUpdate({ id: 'a', expectedRevision: 'r1', content: '  ' }), /"content" must not be empty; to remove a snippet, use satchel_delete_snippet/);
  assert.throws(() => parseUpdate({ id: 'a', expectedRevision: 'r1', name: 'n'.repeat(LIMITS.nameChars + 1) }), /A name has 513 characters/);
  assert.throws(() => parseUpdate({ id: 'a', expectedRevision: 'r1', tags: ['t'.repeat(LIMITS.tagChars + 1)] }), /A tag has 257 characters/);
});

test('delete input: id and the revision read', () => {
  assert.deepEqual(parseDelete({ id: 'a', expectedRevision: ' r1 ' }), { id: 'a', expectedRevision: 'r1' });
  assert.throws(() => parseDelete({ id: 'a' }), /"expectedRevision" is required/);
  assert.throws(() => parseDelete({ id: 'a', expectedRevision: 7 }), /"expectedRevision" must be a string/);
});
