/** The status bar's count of snippets holding secrets, and what it says sync does with them. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { secretsStatusText } from '../../../src/extension/secrets/statusText.ts';

test('hidden when nothing is flagged', () => {
  assert.equal(secretsStatusText({ flagged: 0, syncedWithSecret: 0 }), undefined);
});

test('counts the flagged snippets and says sync redacts them', () => {
  assert.deepEqual(secretsStatusText({ flagged: 1, syncedWithSecret: 0 }), {
    text: '$(key) 1',
    tooltip: '1 snippet holds a secret. Sync pushes it with placeholders instead of the values. Agents and exports get placeholders. Click to list them.',
  });
  assert.match(secretsStatusText({ flagged: 6, syncedWithSecret: 0 })!.tooltip, /^6 snippets hold a secret\. Sync pushes them with placeholders/);
});

test('says how many sync with their secret, by the user\'s choice', () => {
  const status = secretsStatusText({ flagged: 3, syncedWithSecret: 1 })!;
  assert.equal(status.text, '$(key) 3 (1 synced)');
  assert.match(status.tooltip, /Sync pushes 2 snippets with placeholders; 1 snippet with its secret, as you chose\./);
  assert.match(secretsStatusText({ flagged: 2, syncedWithSecret: 5 })!.tooltip, /0 snippets with placeholders; 2 snippets with their secret/, 'never more than flagged');
});

test('without the host\'s word on sync, says only what holds whatever the choice', () => {
  assert.deepEqual(secretsStatusText({ flagged: 2, syncedWithSecret: undefined }), {
    text: '$(key) 2',
    tooltip: '2 snippets hold a secret. Agents and exports get placeholders. Click to list them.',
  });
});
