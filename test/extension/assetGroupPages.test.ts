/**
 * The Assets view's paging (views/groupPages.ts, views/assetsData.ts) over a fake host: a group is
 * read a page at a time, let go when closed, idle or when the view holds too much; a change re-reads
 * the counts and only the open groups it touched; a large library is never held whole.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Emitter } from '../../src/core/events.ts';
import type { Asset, StreamedIdentifiers } from '../../src/core/piecesTypes.ts';
import type { IdentifierStream } from '../../src/extension/liveCollection.ts';
import { GroupPages, type Page } from '../../src/extension/views/groupPages.ts';
import { AssetsData, changedGroups, type AssetsSource } from '../../src/extension/views/assetsData.ts';
import { RecentRecords } from '../../src/extension/views/recentRecords.ts';
import type { AssetGroupCounts, GroupBy } from '../../src/wire/snippets.ts';

const silent = { info() {}, warn() {}, error() {} };

/** A group of `n` ids in order, paged as the host does (ids after the cursor). */
function numbered(prefix: string, n: number): string[] {
  return Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(5, '0')}`);
}
function pageOf(ids: readonly string[], after: string | undefined, limit: number): Page<string> {
  const rest = ids.filter((id) => after === undefined || id > after);
  const items = rest.slice(0, limit);
  return rest.length > limit ? { items, next: items.at(-1)! } : { items };
}

test('a group is read a page at a time; "more" appends the next; the last page says there is no more', async () => {
  const groups = new Map([['ts', numbered('t', 25)]]);
  const asked: Array<[string, string | undefined]> = [];
  const pages = new GroupPages<string>(async (key, after, limit) => (asked.push([key, after]), pageOf(groups.get(key) ?? [], after, limit)), (id) => id, { pageSize: 10, maxHeld: 1_000 });
  assert.equal(pages.held('ts'), undefined, 'nothing is held before the group is opened');
  const first = await pages.open('ts');
  assert.deepEqual(first.items, numbered('t', 10));
  assert.equal(first.more, true);
  await pages.more('ts');
  await pages.more('ts');
  const all = pages.held('ts')!;
  assert.deepEqual(all.items, numbered('t', 25));
  assert.equal(all.more, false);
  await pages.more('ts');
  assert.equal(asked.length, 3, 'no request past the last page');
  assert.deepEqual(asked.map(([, after]) => after), [undefined, 't00009', 't00019']);
  assert.equal((await pages.open('ts')).items.length, 25, 'opening a held group reads nothing');
  assert.equal(asked.length, 3);
});

test('closed, idle and least recently used groups are let go; the view never holds more than maxHeld', async () => {
  let now = 0;
  const groups = new Map(['a', 'b', 'c', 'd'].map((key) => [key, numbered(key, 50)]));
  const pages = new GroupPages<string>(async (key, after, limit) => pageOf(groups.get(key)!, after, limit), (id) => id, { pageSize: 20, maxHeld: 50, now: () => now });
  await pages.open('a');
  now = 10;
  await pages.open('b');
  now = 20;
  await pages.more('b');
  assert.equal(pages.size, 60 - 20, 'a (20) went when b reached 40 and the total passed 50');
  assert.deepEqual(pages.keys, ['b']);
  now = 30;
  await pages.open('c');
  assert.equal(pages.size, 40 + 20 - 40, 'the least recently used (b) goes for c');
  assert.deepEqual(pages.keys, ['c']);
  pages.close('c');
  assert.equal(pages.size, 0, 'a closed group is let go');
  await pages.open('d');
  now = 100_000;
  assert.deepEqual(pages.evictIdle(60_000), ['d'], 'a group nobody read for a while is let go');
  assert.equal(pages.held('d'), undefined);
});

test('reload reads a held group again as far as it was read; a failed first page leaves nothing held', async () => {
  const ids = numbered('x', 30);
  let fail = false;
  const pages = new GroupPages<string>(
    async (_, after, limit) => {
      if (fail) throw new Error('host gone');
      return pageOf(ids, after, limit);
    },
    (id) => id,
    { pageSize: 10, maxHeld: 1_000 },
  );
  await pages.open('g');
  await pages.more('g');
  ids.splice(0, 1, 'x00000-renamed');
  ids.sort();
  assert.deepEqual(await pages.reload(['g', 'not-open']), ['g'], 'only held groups are read again');
  assert.equal(pages.held('g')!.items.length, 20, 'two pages, as before');
  assert.equal(pages.held('g')!.items[0], 'x00000-renamed', 'the new record is read');
  assert.deepEqual(pages.holding(new Set(['x00005', 'zzz'])), ['g']);
  fail = true;
  await assert.rejects(pages.open('h'));
  assert.equal(pages.held('h'), undefined, 'asked again next time');
});

test('recent records keep the last few, least recently touched first out', () => {
  const recent = new RecentRecords<number>(3);
  for (const id of ['a', 'b', 'c']) recent.set(id, 1);
  recent.set('a', 2);
  recent.set('d', 3);
  assert.deepEqual([...'abcd'].map((id) => recent.has(id)), [true, false, true, true]);
  assert.equal(recent.get('a'), 2);
});

test('changedGroups names the groups whose count moved, appeared or went', () => {
  const at = (groups: Array<[string, number]>): AssetGroupCounts => ({ by: 'language', total: 0, groups: groups.map(([key, count]) => ({ key, count })) });
  assert.deepEqual(changedGroups(at([['ts', 2], ['py', 1], ['go', 4]]), at([['ts', 3], ['go', 4], ['rs', 1]])).sort(), ['py', 'rs', 'ts']);
});

/** A host of `n` snippets over the view's source interface, counting what the window asked for. */
function fakeHost(n: number) {
  const assets = new Map<string, Asset>();
  const add = (id: string, language: string, name = id) => assets.set(id, { id, name, original: { reference: { classification: { specific: language } } } } as unknown as Asset);
  numbered('a', n).forEach((id, i) => add(id, i % 2 ? 'ts' : 'py'));
  const frames = new Emitter<StreamedIdentifiers>();
  const stream: IdentifierStream = { onFrame: frames.event, onDidChangeConnected: new Emitter<boolean>().event, dispose: () => frames.dispose() };
  const asked = { byId: 0, records: 0, pages: [] as string[], counts: 0 };
  const language = (asset: Asset) => asset.original?.reference?.classification?.specific ?? '';
  const source: AssetsSource = {
    open: () => stream,
    counts: async (by: GroupBy) => {
      asked.counts++;
      const counts = new Map<string, number>();
      for (const asset of assets.values()) counts.set(language(asset), (counts.get(language(asset)) ?? 0) + 1);
      return { by, total: assets.size, groups: [...counts].map(([key, count]) => ({ key, count })) };
    },
    page: async (_by, key, after, limit) => {
      asked.pages.push(key);
      const ids = [...assets.values()].filter((asset) => language(asset) === key).map((asset) => asset.id).sort();
      const page = pageOf(ids, after, limit);
      asked.records += page.items.length;
      return { items: page.items.map((id) => assets.get(id)!), ...(page.next ? { next: page.next } : {}) };
    },
    byId: async (ids) => {
      asked.byId++;
      asked.records += ids.length;
      return ids.flatMap((id) => (assets.has(id) ? [assets.get(id)!] : []));
    },
  };
  const send = (ids: string[], deleted = false) => frames.fire({ iterable: ids.map((id) => ({ asset: { id }, ...(deleted ? { deleted: true } : {}) })) });
  return { assets, add, source, send, asked };
}

test('a 10k library is never held whole: counts, a few recent records, and only the groups opened', async () => {
  const host = fakeHost(10_000);
  const options = { pageSize: 100, maxHeld: 2_000, recent: 200, perChange: 32 };
  const data = new AssetsData(host.source, 'language', silent, options);
  const changes: Array<{ ids: readonly string[]; full: boolean }> = [];
  data.onDidChange((change) => changes.push(change));
  host.send([...host.assets.keys()]);
  await data.loaded;
  assert.equal(data.counts?.total, 10_000);
  assert.deepEqual(Object.fromEntries(data.counts!.groups.map((g) => [g.key, g.count])), { py: 5_000, ts: 5_000 });
  assert.ok(data.held().length <= 200, `held ${data.held().length} records after the first frame`);
  assert.equal(host.asked.records, 200, 'the first frame reads only the recent ones');

  await data.pages.open('ts');
  assert.equal(data.pages.size, 100);
  // An import batch of 500 new snippets: the counts move, the open group is read again (one page), 32 records read.
  host.asked.records = 0;
  host.asked.pages.length = 0;
  const batch = numbered('b', 500);
  for (const id of batch) host.add(id, 'ts');
  host.send(batch);
  await until(() => changes.length === 2);
  assert.equal(data.counts?.total, 10_500);
  assert.deepEqual(host.asked.pages, ['ts'], 'only the open group whose count moved is read again');
  assert.equal(host.asked.records, 32 + 100);
  assert.ok(data.held().length <= 100 + 200);

  // A rename of a snippet in no open group reads that record only; the open group is left alone.
  host.asked.pages.length = 0;
  host.add('a00000', 'py', 'renamed');
  host.send(['a00000']);
  await until(() => changes.length === 3);
  assert.deepEqual(host.asked.pages, []);
  assert.equal(data.get('a00000')?.name, 'renamed');
  // A rename of one the open group shows reads that group again.
  host.add('a00001', 'ts', 'renamed too');
  host.send(['a00001']);
  await until(() => changes.length === 4);
  assert.deepEqual(host.asked.pages, ['ts']);
  assert.equal(data.pages.find('a00001')?.name, 'renamed too');
  // A delete leaves the recent records and the group.
  host.assets.delete('a00001');
  host.send(['a00001'], true);
  await until(() => changes.length === 5);
  assert.equal(data.get('a00001'), undefined);
  assert.equal(data.counts?.total, 10_499);
  data.dispose();
});

test('grouping by tag lets the open groups go and reads the counts again', async () => {
  const host = fakeHost(10);
  const data = new AssetsData(host.source, 'language', silent);
  host.send([...host.assets.keys()]);
  await data.loaded;
  await data.pages.open('py');
  const counted = host.asked.counts;
  await data.setGrouping('tag');
  assert.equal(data.pages.size, 0);
  assert.equal(data.counts?.by, 'tag');
  assert.equal(host.asked.counts, counted + 1);
  data.dispose();
});

async function until(probe: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !probe(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  assert.ok(probe(), 'timed out');
}

test('a reload and a "Load more…" that overlap run one after the other: no record twice, none skipped', async () => {
  const ids = numbered('r', 35);
  const slow = () => new Promise((resolve) => setTimeout(resolve, 5));
  const pages = new GroupPages<string>(async (_, after, limit) => (await slow(), pageOf(ids, after, limit)), (id) => id, { pageSize: 10, maxHeld: 1_000 });
  await pages.open('g');
  await Promise.all([pages.more('g'), pages.reload(['g']), pages.more('g'), pages.reload(['g'])]);
  const held = pages.held('g')!.items;
  assert.equal(new Set(held).size, held.length, 'each record once');
  assert.deepEqual(held, ids.slice(0, held.length), 'in order, none skipped');
  assert.equal(held.length, 30, 'two more pages read, each reload as far as it had read');
});

test('a collapsed group is let go later only if nobody read it since', async () => {
  let now = 0;
  const pages = new GroupPages<string>(async (_, after, limit) => pageOf(numbered('c', 5), after, limit), (id) => id, { pageSize: 10, maxHeld: 100, now: () => now });
  await pages.open('g');
  now = 10;
  pages.held('g');
  assert.equal(pages.closeIfUnreadSince('g', 5), false, 'read after the collapse: kept');
  assert.equal(pages.closeIfUnreadSince('g', 10), true, 'unread since: let go');
  assert.equal(pages.held('g'), undefined);
});
