import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Satchel } from '../../../src/core/satchel.ts';
import { checkSaved } from '../../../src/core/connector/savedCheck.ts';
import { SATCHEL_APPLICATION } from '../../../src/core/assets/origin.ts';
import { savedSnippets, unrelatedSnippets, reformatted } from '../../support/snippetFixture.ts';
import { TEST_AUTHOR } from '../../support/authors.ts';

let core: Satchel;
let dataDir: string;

before(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'satchel-saved-check-'));
  core = Satchel.open({ dataDir });
});
after(async () => {
  await core.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const seed = (raw: string) => ({ type: 'SEEDED_ASSET' as const, asset: { application: SATCHEL_APPLICATION, format: { fragment: { string: { raw } } } } });

test('saved code is found reformatted; a suggested (unsaved) copy does not count as saved', async () => {
  const [kept, offered] = savedSnippets;
  const asset = await core.assets.writes.create(seed(kept!.code), { author: TEST_AUTHOR });
  await core.assets.writes.create(seed(offered!.code), { suggested: true, author: TEST_AUTHOR });

  const found = checkSaved(core.connector, core.assets, reformatted(kept!.code));
  assert.equal(found.kind, 'saved');
  assert.equal(found.kind === 'saved' && found.matches[0]?.assetId, asset.id);

  assert.deepEqual(checkSaved(core.connector, core.assets, offered!.code), { kind: 'not_saved', worthSaving: true });
});

test('unrelated, trivial and code-free text', () => {
  assert.deepEqual(checkSaved(core.connector, core.assets, unrelatedSnippets[0]!.code), { kind: 'not_saved', worthSaving: true });
  assert.deepEqual(checkSaved(core.connector, core.assets, 'let x = 1;'), { kind: 'too_trivial', reason: 'too_short' });
  assert.deepEqual(checkSaved(core.connector, core.assets, '--- *** --- *** --- *** ---'), { kind: 'too_trivial', reason: 'no_code' });
  assert.deepEqual(checkSaved(core.connector, core.assets, 'const total = items.reduce((sum, item) => sum + item.price, 0);'), { kind: 'not_saved', worthSaving: false });
});

test('asking leaves no trace: no copy remembered, no suggestion counted', () => {
  const count = (table: string) => (core.context.database.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
  const before = [count('connector_copies'), count('connector_reactions')];
  for (let i = 0; i < 3; i++) assert.equal(checkSaved(core.connector, core.assets, reformatted(savedSnippets[0]!.code)).kind, 'saved');
  assert.deepEqual([count('connector_copies'), count('connector_reactions')], before);
});
