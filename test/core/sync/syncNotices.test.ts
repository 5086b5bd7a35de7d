import { test } from 'node:test';
import assert from 'node:assert/strict';
import { backupText, secretsText, skippedText } from '../../../src/core/sync/syncNotices.ts';

test('records a sync could not apply are named, with the reason and how many more, and said to be tried again', () => {
  assert.equal(skippedText([]), undefined);
  const one = skippedText([{ id: 'a1', reason: 'a tag is blank' }]);
  assert.match(one!, /^A record .*tried again at the next sync: a1 \(a tag is blank\)\.$/);
  const three = skippedText([
    { id: 'a1', reason: 'a tag is blank' },
    { id: 'b2', reason: 'over the content limit' },
    { id: 'c3', reason: 'unreadable' },
  ]);
  assert.match(three!, /^3 records .*: a1 \(a tag is blank\) and 2 more\.$/);
});

test('the backup a sync took before its deletes is named', () => {
  assert.equal(backupText(undefined), undefined);
  assert.match(backupText('before-delete-sync-2026-11-28.sqlite')!, /backed up .*before-delete-sync-2026-11-28\.sqlite/);
});

test('the secrets line counts the snippets sent with placeholders and names those sent with their values', () => {
  assert.equal(secretsText(undefined), undefined);
  assert.equal(secretsText({ redacted: 0, withSecrets: [] }), undefined);
  assert.equal(secretsText({ redacted: 1, withSecrets: [] }), '1 snippet holds a secret: sent with placeholders, the values kept on this machine.');
  const named = secretsText({ redacted: 3, withSecrets: [1, 2, 3, 4].map((n) => ({ id: `i${n}`, name: `S${n}` })) })!;
  assert.match(named, /^3 snippets hold a secret/);
  assert.match(named, /Sent with their secrets, as you chose: "S1", "S2", "S3" and 1 more\.$/);
});
