/**
 * The completion language table is read a page at a time after the start and after an import. Each
 * page must walk the table from the last rowid read: planned through the listing index, every page
 * read and sorted every ordinary asset again (a 1M-snippet import: health stalled 3–4 s at a time).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withCore } from '../../support/helpers.ts';
import { codeSeed } from '../../support/assetFixtures.ts';
import { TEST_WRITE } from '../../support/authors.ts';
import { Database } from '../../../src/core/store/database.ts';
import { LanguageTable } from '../../../src/core/snippets/languageTable.ts';

test('each page of the language table is a search by rowid, with no sort of the table', () =>
  withCore(async (core) => {
    for (let i = 0; i < 3; i++) await core.assets.writes.create(codeSeed(`const x${i} = ${i};`, `x${i}`, { ext: i === 1 ? 'py' : 'ts' }), TEST_WRITE);
    const seen = new Set<string>();
    const original = Database.prototype.prepare;
    Database.prototype.prepare = function (this: Database, sql: string) {
      seen.add(sql);
      return original.call(this, sql);
    };
    const languages = new LanguageTable(core.context);
    try {
      await languages.warm();
    } finally {
      Database.prototype.prepare = original;
    }
    const weigh = languages.weigher('ts');
    assert.equal(languages.newest(weigh, 10).length, 2, 'the two TypeScript snippets were read');
    const pages = [...seen].filter((sql) => /FROM assets WHERE rowid > \?/.test(sql));
    assert.equal(pages.length, 1, [...seen].join('\n'));
    const plan = (core.context.database.prepare(`EXPLAIN QUERY PLAN ${pages[0]}`).all(0) as Array<{ detail: string }>).map((row) => row.detail);
    assert.ok(plan.some((detail) => /SEARCH assets USING INTEGER PRIMARY KEY \(rowid>\?\)/.test(detail)), plan.join('; '));
    assert.ok(!plan.some((detail) => /TEMP B-TREE|assets_listing/.test(detail)), plan.join('; '));
    languages.dispose();
  }));
