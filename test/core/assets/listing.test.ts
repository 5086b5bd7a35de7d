/**
 * Listings read the store a chunk of rows per statement along the listing index (issue 26): the
 * ids, documents and formats they give are the whole listing in its order (newest first, ties of
 * creation time by rowid), for each kind of asset and across chunk ends, and the set is the assets
 * that existed when the listing started.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withCore } from '../../support/helpers.ts';
import type { Satchel } from '../../../src/core/satchel.ts';
import { TEST_AUTHOR } from '../../support/authors.ts';

const seed = (raw: string, pseudo = false) =>
  ({ type: 'SEEDED_ASSET', asset: { ...(pseudo ? { pseudo: true } : {}), format: { fragment: { string: { raw } } } } }) as never;

/** More than two chunks of rows, three per creation time; some pseudo, some suggested. */
const ROWS = 3000;

async function grownStore(core: Satchel): Promise<(where: string) => string[]> {
  const template = await core.assets.writes.create(seed('const listed = 1;'), { author: TEST_AUTHOR });
  await core.assets.writes.create(seed('const hidden = 2;', true), { author: TEST_AUTHOR });
  await core.assets.writes.create(seed('const offered = 3;'), { suggested: true, author: TEST_AUTHOR });
  const db = core.context.database;
  db.prepare(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
     INSERT INTO assets (id, created, updated, pseudo, suggested, name, language, data, keywords)
     SELECT printf('00000000-0000-4000-8000-%012d', i), strftime('%Y-%m-%dT%H:%M:%fZ', 1700000000 + i / 3, 'unixepoch'), '',
       i % 7 = 0, i % 11 = 0, 'grown', 'ts', json_set(a.data, '$.id', printf('00000000-0000-4000-8000-%012d', i), '$.pseudo', json(iif(i % 7 = 0, 'true', 'false'))), ''
     FROM n, assets a WHERE a.id = ?`,
  ).run(ROWS, template.id);
  return (where) =>
    (db.prepare(`SELECT id FROM assets WHERE ${where} ORDER BY created DESC, rowid DESC`).all() as Array<{ id: string }>).map((row) => row.id);
}

test('id, asset and format listings are the whole listing in order, for every kind of asset', () =>
  withCore(async (core) => {
    const expected = await grownStore(core);
    const ordinary = expected('suggested = 0 AND pseudo = 0');
    assert.ok(ordinary.length > 2 * 1024, `${ordinary.length} ordinary assets`);
    assert.deepEqual(core.assets.identifiers(), ordinary);
    assert.deepEqual(core.assets.identifiers({ pseudo: true }), expected('suggested = 0'));
    assert.deepEqual(core.assets.identifiers({ onlyPseudo: true }), expected('suggested = 0 AND pseudo = 1'));
    assert.deepEqual([...core.assets.pages({ transferables: false })].flat().map((asset) => asset.id), ordinary);
    assert.deepEqual([...core.assets.pages({ transferables: false, pseudo: true, suggested: true })].flat().map((asset) => asset.id), expected('suggested = 1'));
    assert.deepEqual([...core.assets.formatPages(false)].flat().map((format) => format.asset.id), ordinary);
  }));

test('a listing holds the assets that existed when it started', () =>
  withCore(async (core) => {
    const expected = await grownStore(core);
    const before = expected('suggested = 0 AND pseudo = 0');
    // Pages of 64 assets: the first has read one chunk of rows.
    const pages = core.assets.pages({ transferables: false });
    const first = pages.next();
    assert.equal(first.done, false);
    // Created meanwhile, and sorted into the middle of the listing by its creation time (an import keeps old dates).
    core.context.database
      .prepare(`INSERT INTO assets (id, created, updated, pseudo, suggested, name, language, data, keywords) SELECT 'late', created, '', 0, 0, 'late', 'ts', data, '' FROM assets WHERE id = ?`)
      .run(before[before.length - 10]!);
    assert.deepEqual([...(first.value ?? []), ...[...pages].flat()].map((asset) => asset.id), before);
    assert.ok(core.assets.identifiers().includes('late'), 'the next listing has it');
  }));

test('a document larger than a page is read, then an empty page is given (a turn for the sender), then it is parsed; smaller ones come without one', () =>
  withCore(async (core) => {
    const small = await core.assets.writes.create(seed('const small = 1;'), { author: TEST_AUTHOR });
    const large = await core.assets.writes.create(seed(`const large = "${'x'.repeat(200_000)}";`), { author: TEST_AUTHOR });
    const parse = JSON.parse;
    const steps: string[] = [];
    const pages = core.assets.pages({ transferables: true }, 64, 100_000);
    JSON.parse = ((text: string, reviver?: Parameters<typeof parse>[1]) => {
      if (text.length > 100_000) steps.push('parsed the large document');
      return parse(text, reviver);
    }) as typeof JSON.parse;
    try {
      for (const page of pages) steps.push(page.length === 0 ? 'empty page' : `page of ${page.map((asset) => (asset.id === large.id ? 'large' : asset.id === small.id ? 'small' : '?')).join(', ')}`);
    } finally {
      JSON.parse = parse;
    }
    // Newest first: the large one, alone, its empty page before its parse; then the small one.
    assert.deepEqual(steps, ['empty page', 'parsed the large document', 'page of large', 'page of small']);
    const searched = core.assets.searches.searchPagesWithFilters({}, { transferables: true, pseudo: false });
    assert.deepEqual([...searched.pages].flat().map((entry) => entry.identifier).sort(), [small.id, large.id].sort(), 'a search with empty pages answers every asset');
  }));
