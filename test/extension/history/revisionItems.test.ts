/**
 * How Show History reads: the picker's rows (who, when, what each revision changed, which buttons),
 * its pages, the diff's titles, the restore confirmation, and the revision documents' paths.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RevisionList, RevisionReply, RevisionSummary } from '../../../src/client/history.ts';
import { BEFORE_HISTORY, authorOf } from '../../../src/core/history/authors.ts';
import { byAuthor, compareTitle, changesTitle, relativeAge, restoreConfirmation, documentText } from '../../../src/extension/history/revisionFormat.ts';
import { formatSize } from '../../../src/core/byteSizes.ts';
import { olderRowLabel, PAGE_SIZE, pickerTitle, revisionRows } from '../../../src/extension/history/revisionItems.ts';
import { assetOfDocument, parseRevisionPath } from '../../../src/extension/history/revisionPaths.ts';
import { documentPath } from '../../../src/extension/documentPaths.ts';

const NOW = Date.parse('2026-03-10T12:00:00Z');
const ago = (ms: number) => new Date(NOW - ms).toISOString();
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

function summary(id: string, fields: Partial<RevisionSummary>): RevisionSummary {
  return { id, created: ago(DAY), author: authorOf('vscode', 'Satchel for VS Code'), name: 'Fetch with retry', language: 'ts', size: 100, changes: ['content'], ...fields };
}

function reply(revision: RevisionSummary, fields: Partial<RevisionReply>): RevisionReply {
  return { ...revision, asset: 'a1', current: false, content: { text: 'x' }, tags: [], description: null, ...fields };
}

const created = summary('r1', { created: ago(10 * DAY), changes: ['created'], name: 'fetch', size: 800 });
const byClaude = summary('r2', { created: ago(3 * DAY), author: authorOf('mcp', 'Claude Desktop'), changes: ['content', 'name'], size: 1300 });
const byImport = summary('r3', { created: ago(5 * MINUTE), author: authorOf('import', 'python.json'), changes: ['tags', 'description'], size: 1300 });
const list: RevisionList = { asset: 'a1', current: 'r3', deleted: false, revisions: [byImport, byClaude, created] };

test('ages read as a person says them', () => {
  assert.equal(relativeAge(ago(20_000), NOW), 'just now');
  assert.equal(relativeAge(ago(MINUTE), NOW), '1 minute ago');
  assert.equal(relativeAge(ago(5 * 60 * MINUTE), NOW), '5 hours ago');
  assert.equal(relativeAge(ago(DAY + MINUTE), NOW), 'yesterday');
  assert.equal(relativeAge(ago(3 * DAY), NOW), '3 days ago');
  assert.equal(relativeAge(ago(20 * DAY), NOW), '2 weeks ago');
  assert.equal(relativeAge(ago(100 * DAY), NOW), '3 months ago');
  assert.equal(relativeAge(ago(800 * DAY), NOW), '2 years ago');
  assert.equal(relativeAge('not a time', NOW), 'at an unknown time');
});

test('authors and sizes: by whom, through which door', () => {
  assert.equal(byAuthor(authorOf('mcp', 'Claude Desktop')), 'by Claude Desktop');
  assert.equal(byAuthor(authorOf('import', 'python.json')), 'by an import of python.json');
  assert.equal(byAuthor(authorOf('import')), 'by an import');
  assert.equal(byAuthor(authorOf('sync', 'origin')), 'by a sync with origin');
  assert.equal(byAuthor(BEFORE_HISTORY), 'before history was kept');
  assert.deepEqual([0, 1023, 1024, 1300, 20 * 1024, 4 * 1024 * 1024].map(formatSize), ['0 B', '1023 B', '1.0 KB', '1.3 KB', '20 KB', '4.0 MB']);
});

test('a row per revision, newest first: author and age, name and size, what it changed, its buttons', () => {
  const rows = revisionRows(list, PAGE_SIZE, new Map(), NOW);
  assert.deepEqual(
    rows.map((row) => [row.label, row.description, row.detail, row.actions]),
    [
      ['$(cloud-download) python.json · 5 minutes ago', 'current · Fetch with retry · 1.3 KB', 'Import · Tags changed · Description changed', ['changes']],
      ['$(robot) Claude Desktop · 3 days ago', 'Fetch with retry · 1.3 KB', 'MCP client · Content changed (800 B → 1.3 KB) · Renamed from “fetch”', ['changes', 'restore']],
      ['$(vscode) Satchel for VS Code · 10 days ago', 'fetch · 800 B', 'VS Code · Created', ['restore']],
    ],
  );
});

test('a revision read whole shows the tags and description it set; a restore names the revision it brought back', () => {
  const restore = summary('r4', { created: ago(MINUTE), restoredFrom: 'r2', changes: ['content'] });
  const restoredList: RevisionList = { ...list, current: 'r4', revisions: [restore, ...list.revisions] };
  const details = new Map([['r3', { tags: ['http', 'retry'], description: 'Retries a fetch with exponential backoff, up to three attempts by default.' }]]);
  const rows = revisionRows(restoredList, PAGE_SIZE, details, NOW);
  assert.equal(rows[0]!.detail, 'VS Code · Restored the revision of 3 days ago · Content changed (1.3 KB → 100 B)');
  assert.equal(rows[1]!.detail, 'Import · Tags: http, retry · Description: “Retries a fetch with exponential backoff, up to three attem…”');
  assert.deepEqual(rows[1]!.actions, ['changes', 'restore'], 'no longer current: it can be restored');
  const removed = revisionRows(list, PAGE_SIZE, new Map([['r3', { tags: [], description: null }]]), NOW);
  assert.equal(removed[0]!.detail, 'Import · Tags removed · Description removed');
});

test('a deleted snippet\'s revisions are listed without Restore (the trash brings it back)', () => {
  const rows = revisionRows({ ...list, deleted: true }, PAGE_SIZE, new Map(), NOW);
  assert.ok(rows.every((row) => !row.actions.includes('restore')));
  assert.ok(!rows[0]!.description.startsWith('current'));
  assert.match(pickerTitle({ ...list, deleted: true }).title, /\(deleted\)$/);
  assert.equal(pickerTitle(list).title, 'History of “Fetch with retry”');
});

test('many revisions come a page at a time', () => {
  const revisions = Array.from({ length: 120 }, (_, i) => summary(`r${120 - i}`, { created: ago(i * MINUTE) }));
  const many: RevisionList = { asset: 'a1', current: 'r120', deleted: false, revisions };
  assert.equal(revisionRows(many, PAGE_SIZE, new Map(), NOW).length, 50);
  assert.equal(olderRowLabel(many, PAGE_SIZE), '$(history) Show 50 of 70 older revisions…');
  assert.equal(olderRowLabel(many, 2 * PAGE_SIZE), '$(history) Show 20 older revisions…');
  assert.equal(olderRowLabel(many, 3 * PAGE_SIZE), undefined);
  assert.equal(revisionRows(many, 3 * PAGE_SIZE, new Map(), NOW).length, 120);
  assert.equal(olderRowLabel(list, PAGE_SIZE), undefined);
});

test('the diff titles say which revision, when and by whom', () => {
  assert.equal(compareTitle(byClaude, NOW), 'Fetch with retry (3 days ago, by Claude Desktop) ↔ current');
  assert.equal(changesTitle(byImport, NOW), 'Fetch with retry: changes by an import of python.json (5 minutes ago)');
});

test('the restore confirmation says what the restore changes', () => {
  const then = reply(created, { content: { text: 'old' }, tags: ['http'], description: null });
  const now = reply(byImport, { content: { text: 'new text' }, tags: ['http', 'retry'], description: 'Retries.' });
  const { message, detail } = restoreConfirmation(then, now, NOW);
  assert.equal(message, 'Restore “fetch” as it was 10 days ago (by Satchel for VS Code)?');
  assert.equal(
    detail,
    'Content: 1.3 KB → 800 B\nName: “Fetch with retry” → “fetch”\nTags: http, retry → http\nDescription: removed\n\nThe current state stays in the history, so this restore can be undone from Show History.',
  );
  assert.match(restoreConfirmation(now, { ...now, id: 'r9' }, NOW).detail, /^The restored revision holds the same as the current one\./);
  assert.equal(documentText(reply(created, { content: { base64: 'AAEC' }, size: 3 })), '(Binary content, 3 B: not shown as text.)');
});

test('revision documents: the ids are the key, the file name gives the language', () => {
  const path = documentPath('asset/with spaces', 'r1', 'Fetch: with retry', 'ts');
  assert.equal(path, '/asset%2Fwith%20spaces/r1/Fetch  with retry.ts');
  assert.deepEqual(parseRevisionPath(path), { asset: 'asset/with spaces', revision: 'r1' });
  assert.equal(parseRevisionPath('/a1/r1'), undefined);
  assert.equal(parseRevisionPath('/%E0%A4%A/r1/x.ts'), undefined, 'a malformed id is no revision');
  assert.equal(assetOfDocument({ scheme: 'satchel-revision', authority: '', path }), 'asset/with spaces');
  assert.equal(assetOfDocument({ scheme: 'satchel', authority: 'a1', path: '/Fetch.ts' }), 'a1');
  assert.equal(assetOfDocument({ scheme: 'satchel', authority: 'a1', path: '/description/Fetch.description.md' }), 'a1');
  assert.equal(assetOfDocument({ scheme: 'satchel', authority: '', path: '/a1/Fetch.ts' }), undefined);
  assert.equal(assetOfDocument({ scheme: 'file', authority: '', path: '/a1/Fetch.ts' }), undefined);
});
