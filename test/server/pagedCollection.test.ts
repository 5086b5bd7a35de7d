/**
 * Paged collections in replies (core/paged.ts, jsonValueReply): the JSON is the collection read
 * whole, byte for byte, but each page is read only once the parts before it were sent, with a turn
 * of the event loop in between, so a conversation of any size never sits in memory at once.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PagedCollection, boundedPages, evenly } from '../../src/core/paged.ts';
import { jsonValueReply } from '../../src/server/jsonEncode.ts';

interface Item {
  readonly id: string;
  readonly text: string;
}

function pagesOf(items: readonly Item[], size: number, log?: string[]): PagedCollection<Item> {
  return new PagedCollection(function* () {
    for (let at = 0; at < items.length; at += size) {
      log?.push(`read ${at / size}`);
      yield items.slice(at, at + size);
    }
  });
}

async function encoded(value: unknown): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of jsonValueReply(value)) parts.push(part);
  return Buffer.concat(parts).toString('utf8');
}

test('a reply holding paged collections, nested and with large strings, is the JSON of the collections read whole', async () => {
  const items = (prefix: string, n: number): Item[] => Array.from({ length: n }, (_, i) => ({ id: `${prefix}${i}`, text: `"${prefix}" ${i}\n` }));
  const large = `${'x'.repeat(1024 * 1024)}😀\\"end`;
  const inner = [pagesOf(items('a', 5), 2), pagesOf([], 3), PagedCollection.of(items('c', 2)), pagesOf([{ id: 'big', text: large }], 1)];
  const outer = new PagedCollection(function* () {
    yield inner.slice(0, 3).map((messages, i) => ({ id: `conversation ${i}`, name: 'n', messages }));
    yield [{ id: 'conversation 3', name: 'large', messages: inner[3]! }];
  });
  const value = { outer, after: true };
  const expected = JSON.stringify({
    outer: {
      ...(() => {
        const iterable = [0, 1, 2, 3].map((i) => ({ id: `conversation ${i}`, name: i === 3 ? 'large' : 'n', messages: inner[i]!.collect() }));
        return { iterable, indices: Object.fromEntries(iterable.map((item, index) => [item.id, index])) };
      })(),
    },
    after: true,
  });
  assert.equal(await encoded(value), expected);
});

test('each page is read only after the parts before it were sent, with a turn of the event loop between', async () => {
  const log: string[] = [];
  const collection = pagesOf(
    Array.from({ length: 6 }, (_, i) => ({ id: String(i), text: 't' })),
    2,
    log,
  );
  let encoding = true;
  const tick = (): void => {
    log.push('turn');
    if (encoding) setImmediate(tick);
  };
  setImmediate(tick);
  for await (const part of jsonValueReply(collection)) log.push(`sent ${part.toString().replace(/"text":"t"/g, '')}`);
  encoding = false;
  for (const page of [1, 2]) {
    const before = log.slice(log.indexOf(`read ${page - 1}`), log.indexOf(`read ${page}`));
    assert.ok(before.some((entry) => entry.includes(`"id":"${page * 2 - 1}"`)), `page ${page} was read after the one before it was sent: ${log.join(' | ')}`);
    assert.ok(before.includes('turn'), `the event loop ran between pages ${page - 1} and ${page}: ${log.join(' | ')}`);
  }
});

test('a collection not read yet cannot be stringified whole; one already read can', () => {
  assert.throws(() => JSON.stringify({ messages: pagesOf([{ id: 'a', text: '' }], 1) }), /sent a page at a time/);
  assert.equal(JSON.stringify(PagedCollection.of([{ id: 'a', text: '' }])), '{"iterable":[{"id":"a","text":""}],"indices":{"a":0}}');
});

test('bounded pages hold at most a count and a size of items, or one larger item alone', () => {
  const sized = [5, 5, 20, 1, 1, 1, 1].map((size, i) => ({ id: i, size }));
  assert.deepEqual(
    [...boundedPages(sized, 3, 10)].map((page) => page.map((item) => item.id)),
    [[0, 1], [2], [3, 4, 5], [6]],
  );
  assert.deepEqual(evenly([0, 1, 2, 3, 4, 5, 6, 7, 8], 3), [0, 4, 8]);
  assert.deepEqual(evenly([0, 1], 5), [0, 1]);
});
