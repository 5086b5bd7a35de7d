import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Satchel } from '../../../src/core/satchel.ts';
import type { Application } from '../../../src/core/piecesTypes.ts';
import { savedSnippets, unrelatedSnippets, partialOf, reformatted, commented, superset, type CopyKind } from '../../support/snippetFixture.ts';
import { TEST_AUTHOR } from '../../support/authors.ts';
import { worthSaving, notWorthSaving } from '../../support/saveFixture.ts';

let core: Satchel;
let dataDir: string;
let application: Application;
const saved = new Map<string, string>(); // snippet name → asset id
let clock = Date.parse('2026-01-01T00:00:00Z');

before(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'satchel-quality-'));
  core = Satchel.open({ dataDir });
  application = core.connector.connect({ application: { name: 'VS_CODE', version: '1.101.0', platform: 'LINUX' } }, '0.1.0').application;
  for (const snippet of savedSnippets) {
    const asset = await core.assets.writes.create({
      type: 'SEEDED_ASSET',
      asset: { application, format: { fragment: { string: { raw: snippet.code } } }, metadata: { name: snippet.name } },
    }, { author: TEST_AUTHOR });
    saved.set(snippet.name, asset.id);
  }
});
after(async () => {
  await core.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function suggest(code: string) {
  // Each copy an hour apart, so the repeat rule never hides a case.
  clock += 60 * 60 * 1000;
  return core.connector.suggest(application.id, { asset: { format: { fragment: { string: { raw: code } } } } }, clock);
}

test('suggestions on exact, partial, reformatted, commented and superset copies, and on unrelated code', () => {
  assert.ok(savedSnippets.length >= 30, 'the fixture has at least 30 saved snippets');
  const kinds: Record<CopyKind, (code: string, language: string, i: number) => string> = {
    exact: (code) => code,
    partial: (code) => partialOf(code),
    reformatted: (code) => reformatted(code),
    commented: (code, language) => commented(code, language),
    superset: (code, _language, i) => superset(code, unrelatedSnippets[i % unrelatedSnippets.length]!.code),
  };
  let truePositives = 0;
  let wrongTop = 0;
  let positives = 0;
  const recallByKind: Record<string, string> = {};
  const misses: string[] = [];
  for (const [kind, make] of Object.entries(kinds) as Array<[CopyKind, (typeof kinds)[CopyKind]]>) {
    let found = 0;
    savedSnippets.forEach((snippet, i) => {
      const suggestion = suggest(make(snippet.code, snippet.language, i));
      positives++;
      if (!suggestion.reuse.suggested) {
        misses.push(`${kind}/${snippet.name} (${(suggestion as { reason?: string }).reason ?? 'save'} ${suggestion.target.vector})`);
        return;
      }
      const top = suggestion.reuse.assets.iterable[0]?.id;
      if (top === saved.get(snippet.name)) {
        found++;
        truePositives++;
      } else wrongTop++;
    });
    recallByKind[kind] = `${found}/${savedSnippets.length}`;
    assert.ok(found / savedSnippets.length >= (kind === 'partial' ? 0.8 : 0.9), `${kind} recall ${found}/${savedSnippets.length}: ${misses.join(', ')}`);
  }
  let falsePositives = 0;
  let saveSuggested = 0;
  for (const snippet of unrelatedSnippets) {
    const suggestion = suggest(snippet.code);
    if (suggestion.reuse.suggested) falsePositives++;
    if (suggestion.save.suggested) saveSuggested++;
  }
  const reuseClaims = truePositives + wrongTop + falsePositives;
  const precision = reuseClaims === 0 ? 0 : truePositives / reuseClaims;
  const recall = truePositives / positives;
  console.log(
    `suggest quality: ${savedSnippets.length} saved snippets, ${positives} copies, ${unrelatedSnippets.length} unrelated; ` +
      `precision ${precision.toFixed(3)}, recall ${recall.toFixed(3)} (${JSON.stringify(recallByKind)}); ` +
      `false positives ${falsePositives}/${unrelatedSnippets.length}; save suggested for ${saveSuggested}/${unrelatedSnippets.length} unrelated` +
      (misses.length ? `; missed: ${misses.join(', ')}` : ''),
  );
  assert.equal(falsePositives, 0, 'no unrelated snippet is suggested for reuse');
  assert.equal(wrongTop, 0, 'a reuse suggestion never puts another snippet first');
  assert.ok(precision >= 0.98, `precision ${precision}`);
  assert.ok(recall >= 0.9, `recall ${recall}`);
  assert.ok(saveSuggested >= unrelatedSnippets.length - 2, `save suggested for ${saveSuggested} unrelated snippets`);
});

test('a reuse suggestion carries the matching assets and a score distribution over them', () => {
  const snippet = savedSnippets[0]!;
  const suggestion = suggest(snippet.code);
  const id = saved.get(snippet.name)!;
  assert.equal(suggestion.reuse.suggested, true);
  assert.equal(suggestion.save.suggested, false);
  assert.deepEqual(suggestion.assets.iterable.map((a) => a.id), suggestion.reuse.assets.iterable.map((a) => a.id));
  assert.equal(suggestion.assets.iterable[0]!.id, id);
  assert.equal(suggestion.distribution![id], 1);
  assert.equal(suggestion.target.vector, 1);
  assert.equal(suggestion.assets.iterable[0]!.formats.iterable[0]!.fragment?.string?.raw, snippet.code);
});

test('new small functions get a save suggestion; one-liners and trivia do not', () => {
  const missed = worthSaving.flatMap((snippet) => {
    const suggestion = suggest(snippet.code);
    return suggestion.save.suggested ? [] : [`${snippet.name} (${(suggestion as { reason?: string }).reason ?? 'reuse'})`];
  });
  const nagged = notWorthSaving.filter((snippet) => suggest(snippet.code).save.suggested).map((snippet) => snippet.name);
  console.log(
    `save quality: save suggested for ${worthSaving.length - missed.length}/${worthSaving.length} new small functions, ` +
      `${nagged.length}/${notWorthSaving.length} one-liners and trivia`,
  );
  assert.deepEqual(missed, [], 'new functions of two to five lines are worth saving');
  assert.deepEqual(nagged, [], 'one-liners and trivia are not');
});
