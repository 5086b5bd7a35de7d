/**
 * What the language-model write tools say: the confirmation shows what an update changes (and
 * warns when the snippet moved since the agent read it), a stale revision fails with the revision
 * to read again, an unknown id says how to find it, and a proposal says it waits for review.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ClientError } from '../../../src/client/errors.ts';
import { deleteConfirmation, deleteResult, saveResult, updateConfirmation, updateResult, writeFailure, ToolWriteError } from '../../../src/extension/agents/writeToolText.ts';
import type { RevisedDetail } from '../../../src/extension/agents/snippetOperations.ts';

const current: RevisedDetail = {
  id: 'a1',
  name: 'retry',
  language: 'ts',
  tags: ['http'],
  preview: 'retry()',
  updated: undefined,
  content: 'export function retry() {}\n',
  websites: [],
  conversations: [],
  revision: 'r2',
};

test('an update confirmation names the snippet and each change, and warns when it changed since the agent read it', () => {
  const fresh = updateConfirmation({ id: 'a1', expectedRevision: 'r2', name: 'retry with backoff', tags: ['http', 'retry'], content: 'a\nb\n' }, current);
  assert.equal(fresh.title, 'Update a Satchel snippet');
  assert.match(fresh.message, /Let the agent change \*\*retry\*\*\?/);
  assert.match(fresh.message, /\*\*Name\*\*: retry → retry with backoff/);
  assert.match(fresh.message, /\*\*Tags\*\*: #http → #http, #retry/);
  assert.match(fresh.message, /\*\*New content\*\* \(2 lines, was 1\)/);
  assert.match(fresh.message, /```ts\na\nb\n```/);
  assert.doesNotMatch(fresh.message, /changed since the agent read it/);
  const stale = updateConfirmation({ id: 'a1', expectedRevision: 'r1', description: '' }, current);
  assert.match(stale.message, /\*\*Description\*\*: removed/);
  assert.match(stale.message, /changed since the agent read it \(revision r1; now r2\): Satchel will refuse this/);
  assert.match(deleteConfirmation({ id: 'a1', expectedRevision: 'r2' }, current).message, /Let the agent delete \*\*retry\*\*\?[\s\S]*export function retry/);
  assert.match(deleteConfirmation({ id: 'gone', expectedRevision: 'r2' }, undefined).message, /delete \*\*gone\*\*/, 'an unreadable snippet is named by its id');
});

test('a stale revision fails with the revision to read again; an unknown id says how to find it; other errors keep their message', () => {
  const input = { id: 'a1', expectedRevision: 'r1', name: 'x' };
  const stale = writeFailure('update', input, new ClientError(412, 'stale_revision', 'changed', { currentRevision: 'r2' }));
  assert.ok(stale instanceof ToolWriteError);
  assert.match(stale.message, /Snippet a1 changed since revision r1, the one you read \(its current revision is r2\)\. Nothing was written\./);
  assert.match(stale.message, /Read it again with satchel_get_snippet.*call satchel_update_snippet again with expectedRevision "r2"/);
  assert.match(writeFailure('delete', input, new ClientError(404, 'not_found', 'no')).message, /Snippet a1 was not found .*satchel_search_snippets/);
  assert.match(writeFailure('delete', input, new ClientError(413, 'too_large', 'A name has 600 characters')).message, /Satchel refused the delete: A name has 600 characters/);
  const other = new Error('socket closed');
  assert.equal(writeFailure('update', input, other), other);
});

test('results tell the model what happened: written with its new revision, unchanged, or proposed for review', () => {
  const input = { id: 'a1', expectedRevision: 'r1', name: 'x' };
  assert.deepEqual(updateResult(input, { status: 'applied', asset: 'a1', name: 'x', revision: 'r2', change: 'c1' }), {
    status: 'updated',
    id: 'a1',
    name: 'x',
    revision: 'r2',
    change: 'c1',
    message: 'Updated "x"; its revision is now r2. The user can see and revert the change under Agent changes.',
  });
  assert.equal(updateResult(input, { status: 'unchanged', asset: 'a1', name: 'x', revision: 'r1' }).status, 'unchanged');
  const proposed = deleteResult(input, { status: 'proposed', asset: 'a1', name: 'x', change: 'c2', base: 'r1' });
  assert.equal(proposed.status, 'proposed');
  assert.match(proposed.message, /waits for the user's review .*Do not make it again/);
  const saved = saveResult({ status: 'proposed', name: 'helper', change: 'c3' });
  assert.deepEqual([saved.saved, saved.status], [false, 'proposed']);
});
