/**
 * The import is a door like any other (docs/limits.md): a snippet over a limit of core/limits.ts
 * (content, tags, description) fails alone with the reason and the rest of the file is imported; a
 * name or a tag longer than its limit is cut to it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseImportFile } from '../../../src/core/import/detect.ts';
import { LIMITS } from '../../../src/core/limits.ts';
import { withCore } from '../../support/helpers.ts';

const vscodeFile = (entries: Record<string, unknown>) => JSON.stringify(entries);

test('VS Code: a snippet with more prefixes than a snippet takes tags fails alone, with the limit and the count', () => {
  const prefixes = Array.from({ length: 200 }, (_, i) => `p${i}`);
  const parsed = parseImportFile(
    'many.code-snippets',
    vscodeFile({
      Crowded: { prefix: prefixes, body: 'const crowded = 1;', scope: 'javascript' },
      Fine: { prefix: ['fine'], body: 'const fine = 1;', scope: 'javascript' },
    }),
  );
  assert.deepEqual(parsed.snippets.map((s) => s.name), ['Fine']);
  assert.equal(parsed.failures.length, 1);
  assert.match(parsed.failures[0]!.source, /Crowded/);
  assert.equal(parsed.failures[0]!.reason, 'A snippet has 200 tags; the limit is 128 (see docs/limits.md)');
});

test('massCode: 200k tags on one snippet (a 4 MB file) fail that snippet alone, in linear time', () => {
  const COUNT = 200_000;
  const tags = Array.from({ length: COUNT }, (_, i) => ({ id: `t${i}`, name: `tag${i}` }));
  const db = {
    folders: [],
    tags,
    snippets: [
      { name: 'Tagged to death', content: [{ label: 'f', language: 'js', value: 'const x = 1;' }], tagsIds: tags.map((tag) => tag.id) },
      { name: 'Ordinary', content: [{ label: 'f', language: 'js', value: 'const y = 2;' }], tagsIds: ['t1', 't2'] },
    ],
  };
  const started = performance.now();
  const parsed = parseImportFile('db.json', JSON.stringify(db));
  const ms = performance.now() - started;
  assert.deepEqual(parsed.snippets.map((s) => s.name), ['Ordinary']);
  assert.deepEqual(parsed.snippets[0]!.tags, ['tag1', 'tag2']);
  assert.equal(parsed.failures.length, 1);
  assert.match(parsed.failures[0]!.reason, /A snippet has 200,000 tags; the limit is 128/);
  assert.ok(ms < 10_000, `parsing took ${ms.toFixed(0)} ms`);
});

test('content and description over their limits fail the snippet; tags equal but for case count once', () => {
  const parsed = parseImportFile(
    'bounds.code-snippets',
    vscodeFile({
      Huge: { prefix: 'huge', body: 'h'.repeat(LIMITS.contentChars + 1) },
      Described: { prefix: 'd', body: 'const d = 1;', description: 'd'.repeat(LIMITS.annotationChars + 1) },
      Cased: { prefix: [...Array.from({ length: LIMITS.tagsPerAsset }, (_, i) => `t${i}`), 'T0', ' t1 '], body: 'const cased = 1;' },
    }),
  );
  assert.deepEqual(parsed.snippets.map((s) => s.name), ['Cased']);
  assert.equal(parsed.snippets[0]!.tags.length, LIMITS.tagsPerAsset);
  const reasons = Object.fromEntries(parsed.failures.map((f) => [f.source.split(' › ').pop(), f.reason]));
  assert.match(reasons['Huge']!, /text content has 4,194,305 characters; the limit is 4,194,304/);
  assert.match(reasons['Described']!, /An annotation has 4,194,305 characters/);
});

test('a name or a tag longer than its limit is cut to it, and the snippet is imported', () => {
  const parsed = parseImportFile(
    'long.code-snippets',
    vscodeFile({ ['n'.repeat(LIMITS.nameChars + 50)]: { prefix: 't'.repeat(LIMITS.tagChars + 50), body: 'const long = 1;' } }),
  );
  assert.equal(parsed.failures.length, 0);
  assert.equal(parsed.snippets[0]!.name.length, LIMITS.nameChars);
  assert.deepEqual(parsed.snippets[0]!.tags, ['t'.repeat(LIMITS.tagChars)]);
});

test('through the importer: the refused snippet is counted failed with its reason and not stored', async () => {
  await withCore(async (core) => {
    const prefixes = Array.from({ length: LIMITS.tagsPerAsset + 1 }, (_, i) => `p${i}`);
    const file = vscodeFile({
      Crowded: { prefix: prefixes, body: 'const crowdedImport = 1;', scope: 'javascript' },
      Fine: { prefix: ['fine'], body: 'const fineImport = 1;', scope: 'javascript' },
    });
    const summary = await core.imports.import([{ name: 'crowded.code-snippets', text: () => file }]);
    assert.equal(summary.imported, 1);
    assert.equal(summary.failed, 1);
    assert.match(summary.failures[0]!.reason, /129 tags; the limit is 128/);
    assert.deepEqual(core.assets.list({}).map((asset) => asset.name), ['Fine']);
  });
});
