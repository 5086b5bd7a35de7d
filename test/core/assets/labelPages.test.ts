/**
 * GET /tags and GET /websites are read a page at a time, each page bounded by the links its
 * labels carry as well as by their number: 128 tags each on 10k snippets made one page of 1.28M
 * links (4.9–9.1 s, health 1.4–2.3 s).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withCore } from '../../support/helpers.ts';
import { TEST_WRITE } from '../../support/authors.ts';
import type { Satchel } from '../../../src/core/satchel.ts';
import type { Tag } from '../../../src/core/piecesTypes.ts';

/** Links `count` made-up assets to the record `id` of `kind`, from the label's side (what its listing reads). */
function link(core: Satchel, kind: 'tag' | 'website', id: string, count: number, prefix: string): void {
  if (count === 0) return;
  core.context.database
    .prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?1)
       INSERT INTO links (a_kind, a_id, b_kind, b_id, created) SELECT ?2, ?3, 'asset', ?4 || i, '2020-01-01T00:00:00.000Z' FROM n`,
    )
    .run(count, kind, id, prefix);
}

test('tag pages hold at most the link bound (a tag with more comes alone) and together are every tag with every asset, oldest first', () =>
  withCore(async (core) => {
    const sizes = [5000, 300, 300, 300, 0, 700, 1, 2500];
    const tags = sizes.map((size, i) => {
      const tag = core.assets.writes.createTag({ text: `tag ${i}` }, TEST_WRITE);
      link(core, 'tag', tag.id, size, `asset-${i}-`);
      return tag.id;
    });
    const pages = [...core.assets.labels.tagPages(256, 1000)];
    const linksOf = (page: readonly Tag[]): number => page.reduce((sum, tag) => sum + (tag.assets?.iterable?.length ?? 0), 0);
    for (const page of pages) assert.ok(page.length === 1 || linksOf(page) <= 1000, `a page of ${page.length} tags and ${linksOf(page)} links`);
    assert.deepEqual(pages.map((page) => page.length), [1, 4, 2, 1]);
    const all = pages.flat();
    assert.deepEqual(all.map((tag) => tag.id), tags);
    assert.deepEqual(all.map((tag) => tag.assets?.iterable?.length), sizes);
    assert.deepEqual(all[1]!.assets?.iterable?.[299], { id: 'asset-1-300' });
    assert.deepEqual(core.assets.labels.tags(), all);
  }));

test('website pages are bounded by their links the same way', () =>
  withCore(async (core) => {
    const ids = [2000, 10, 10].map((size, i) => {
      const website = core.assets.labels.createWebsite({ url: `https://example.com/${i}`, name: `site ${i}` });
      link(core, 'website', website.id, size, `asset-${i}-`);
      return website.id;
    });
    const pages = [...core.assets.labels.websitePages(256, 1000)];
    assert.deepEqual(pages.map((page) => page.map((website) => website.id)), [[ids[0]], [ids[1], ids[2]]]);
    assert.equal(pages[0]![0]!.assets?.iterable?.length, 2000);
  }));
