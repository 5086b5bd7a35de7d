/**
 * The Trash node's listing without VS Code: the first page on connect, more pages on request (an
 * entry never twice), a page of an older listing dropped, a burst of changes read as one request,
 * an entry restored here gone at once, and the trash read again only when a count changes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Emitter } from '../../src/core/events.ts';
import { TRASH_PAGE, TrashPages, whenCountChanges, type TrashSource } from '../../src/extension/trashPages.ts';
import type { TrashItem, TrashListOptions, TrashPage } from '../../src/client/trash.ts';

const silent = { info() {}, warn() {}, error() {} };

function entry(n: number): TrashItem {
  return {
    id: `id-${n}`,
    kind: n % 3 === 0 ? 'conversation' : 'asset',
    name: `entry ${n}`,
    preview: `const n = ${n};`,
    deleted: new Date(Date.UTC(2026, 0, 1) - n * 1000).toISOString(),
    deletedBy: { kind: 'vscode', name: 'VS Code' },
    size: 100,
    expires: null,
  };
}

/** A host's trash of `count` entries, newest first, paged by position; every call recorded. */
function host(count: number): { source: TrashSource; calls: TrashListOptions[]; entries: TrashItem[] } {
  const entries = Array.from({ length: count }, (_, i) => entry(i));
  const calls: TrashListOptions[] = [];
  const source: TrashSource = async (options) => {
    calls.push(options);
    const from = options.after === undefined ? 0 : Number(options.after);
    const limit = options.limit ?? TRASH_PAGE;
    const items = entries.slice(from, from + limit);
    const page: TrashPage = { items, total: entries.length, bytes: entries.length * 100, retentionDays: 30, ...(from + limit < entries.length ? { next: String(from + limit) } : {}) };
    return page;
  };
  return { source, calls, entries };
}

test('connect lists the first page; Load more appends the next ones until none remain', async () => {
  const trash = new TrashPages(silent, 10);
  const { source, calls } = host(TRASH_PAGE * 2 + 5);
  await trash.connect(source);
  assert.equal(trash.items.length, TRASH_PAGE);
  assert.equal(trash.items[0]!.id, 'id-0', 'newest deleted first, as the host lists them');
  assert.equal(trash.count, TRASH_PAGE * 2 + 5);
  assert.equal(trash.remaining, TRASH_PAGE + 5);
  assert.equal(trash.retentionDays, 30);
  await trash.loadMore();
  await trash.loadMore();
  assert.equal(trash.items.length, TRASH_PAGE * 2 + 5);
  assert.equal(new Set(trash.items.map((item) => item.id)).size, trash.items.length, 'no entry twice');
  assert.equal(trash.remaining, 0);
  await trash.loadMore();
  assert.equal(calls.length, 3, 'nothing more is asked for after the last page');
  assert.deepEqual(calls.map((call) => call.after), [undefined, String(TRASH_PAGE), String(TRASH_PAGE * 2)]);
  trash.dispose();
});

test('a page asked for before a reload is dropped; the reload starts the listing again', async () => {
  const trash = new TrashPages(silent, 10);
  const { source, entries } = host(TRASH_PAGE + 10);
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  await trash.connect(async (options) => {
    if (options.after !== undefined) await gate;
    return source(options);
  });
  const more = trash.loadMore();
  entries.splice(0, 1);
  await trash.reload();
  release();
  await more;
  assert.equal(trash.items.length, TRASH_PAGE, 'the old listing’s second page was not appended to the new one');
  assert.equal(trash.items[0]!.id, 'id-1');
  trash.dispose();
});

test('a burst of changes reads the trash once, after they settle; restored entries leave at once', async () => {
  const trash = new TrashPages(silent, 30);
  const { source, calls } = host(3);
  await trash.connect(source);
  let changes = 0;
  trash.onDidChange(() => changes++);
  for (let i = 0; i < 10; i++) trash.invalidate();
  await new Promise((resolve) => setTimeout(resolve, 120));
  assert.equal(calls.length, 2, 'one read for the connect, one for the burst');
  trash.drop('id-1');
  assert.deepEqual(trash.items.map((item) => item.id), ['id-0', 'id-2']);
  assert.equal(trash.count, 2);
  assert.ok(changes >= 2);
  trash.drop('no-such-entry');
  assert.equal(trash.count, 2);
  trash.dispose();
});

test('no connection lists nothing; a failed read keeps what was listed', async () => {
  const warnings: string[] = [];
  const trash = new TrashPages({ ...silent, warn: (message: string) => warnings.push(message) }, 10);
  const { source } = host(4);
  await trash.connect(source);
  assert.equal(trash.count, 4);
  let fail = true;
  const flaky: TrashSource = async (options) => {
    if (fail) throw new Error('host restarting');
    return source(options);
  };
  await trash.connect(flaky);
  assert.equal(trash.count, 0, 'a new connection starts from nothing');
  fail = false;
  await trash.reload();
  assert.equal(trash.count, 4);
  fail = true;
  await trash.reload();
  assert.equal(trash.count, 4, 'a failed read keeps the listing');
  assert.match(warnings.join('\n'), /Could not list the trash: host restarting/);
  await trash.connect(undefined);
  assert.equal(trash.count, 0);
  trash.invalidate();
  trash.dispose();
});

test('whenCountChanges: an edit does not read the trash again, a delete or a restore does', () => {
  const event = new Emitter<void>();
  let count = 5;
  let read = 0;
  const subscription = whenCountChanges(event.event, () => count, () => read++);
  event.fire();
  assert.equal(read, 0, 'an update keeps the count');
  count = 4;
  event.fire();
  event.fire();
  assert.equal(read, 1);
  count = 5;
  event.fire();
  assert.equal(read, 2);
  subscription.dispose();
  count = 1;
  event.fire();
  assert.equal(read, 2);
});
