/**
 * The Conflicts view's text, apart from VS Code: each machine's labels follow which side is its own,
 * the compare documents hold every field (a rename, tags or a description show in the diff, not only
 * the code), and Keep Mine / Keep Theirs ask about the differing fields and send only a choice
 * narrower than all of them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareTitle, conflictDocument, conflictLabels, fieldsToAsk, pickedFields } from '../../src/extension/sync/conflictText.ts';
import type { ConflictSides, ConflictVersion, SyncConflict } from '../../src/client/sync.ts';

const base: ConflictVersion = {
  id: 'original',
  name: 'Retries',
  language: 'ts',
  tags: ['http'],
  websites: [{ url: 'https://example.com/retry', name: 'Retry notes' }],
  description: 'Why three\nand not four',
  code: 'const retries = 3;\n',
  binary: false,
  prefixes: [],
  syntax: false,
  favorited: false,
};

const conflict = (yours: SyncConflict['yours']): SyncConflict => ({ copy: 'copy', original: 'original', name: 'Retries (conflict copy)', language: 'ts', yours });

test('the copy is labelled yours only on the machine that made it; on the machine whose version won it is the other machine\'s', () => {
  assert.equal(conflictLabels(conflict('copy')).description, 'your version');
  assert.match(conflictLabels(conflict('copy')).tooltip, /this copy is yours/);
  assert.equal(conflictLabels(conflict('original')).description, 'another machine\'s version');
  assert.match(conflictLabels(conflict('original')).tooltip, /the version this machine has was kept/);
});

test('a compare document holds every field before the code, so a rename, tags, a description or a website shows in the diff', () => {
  const theirs: ConflictVersion = { ...base, id: 'copy', name: 'Retries, renamed', tags: ['http', 'retry'], description: '', websites: [], code: 'const retries = 5;\n' };
  const mine = conflictDocument(base);
  const other = conflictDocument(theirs);
  assert.equal(
    mine,
    'Name: Retries\nLanguage: ts\nTags: http\nWebsites: Retry notes <https://example.com/retry>\nPrefixes: (none)\nSnippet syntax: no\nFavorite: no\n' +
      'Description:\n  Why three\n  and not four\n\n──── Code ────\nconst retries = 3;\n',
  );
  const differing = (a: string, b: string): string[] => a.split('\n').filter((line, i) => line !== b.split('\n')[i]);
  assert.deepEqual(differing(other, mine).slice(0, 3), ['Name: Retries, renamed', 'Tags: http, retry', 'Websites: (none)']);
  assert.ok(other.includes('Description:\n(none)\n'));
  assert.equal(conflictDocument({ ...base, binary: true, code: '' }).endsWith('──── Code ────\n(binary content)\n'), true);
  assert.equal(conflictDocument(undefined), '(deleted on this machine)\n');
});

test('Keep Mine / Keep Theirs ask about the fields that differ (when several do); all of them picked sends none, fewer send those', () => {
  const sides = (differs: ConflictSides['differs']): ConflictSides => ({ ...conflict('original'), mine: base, theirs: { ...base, id: 'copy' }, differs });
  assert.deepEqual(fieldsToAsk(sides(['code'])), []);
  assert.deepEqual(fieldsToAsk(sides(['name', 'tags', 'code'])), ['name', 'tags', 'code']);
  assert.deepEqual(fieldsToAsk({ ...sides(['name', 'code']), theirs: undefined }), []);
  assert.equal(pickedFields(['name', 'tags', 'code'], ['code', 'tags', 'name']), undefined);
  assert.deepEqual(pickedFields(['name', 'tags', 'code'], ['code']), ['code']);
  assert.deepEqual(pickedFields(['name', 'code'], []), []);
  assert.equal(compareTitle(sides(['name', 'code'])), 'Retries: theirs ↔ yours (name, code differ)');
});
