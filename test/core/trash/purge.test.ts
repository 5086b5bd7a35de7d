/**
 * Leaving the trash for good: after the retention period (in the background, a step at a time;
 * 0 keeps entries until emptied), by Delete Forever (the asset's revisions, their texts and its
 * snippet facts go too), and by emptying the trash (a backup first when that deletes a large share
 * of the library, progress as it goes, a signal that stops it between steps).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withCore } from '../../support/helpers.ts';
import { codeSeed } from '../../support/assetFixtures.ts';
import { TEST_AUTHOR, TEST_WRITE } from '../../support/authors.ts';
import { NotFoundError } from '../../../src/core/errors.ts';
import type { Satchel } from '../../../src/core/satchel.ts';

const DAY = 24 * 60 * 60 * 1000;

function count(core: Satchel, sql: string, ...args: string[]): number {
  return (core.context.database.prepare(sql).get(...args) as { n: number }).n;
}

async function trashed(core: Satchel, name: string): Promise<string> {
  const asset = await core.assets.writes.create(codeSeed(`export const ${name} = "${name}";\n`, name, { tags: [name] }), { author: TEST_AUTHOR });
  core.assets.writes.edit(asset.id, { content: { text: `export const ${name} = "${name} v2";\n` } }, TEST_WRITE);
  core.snippets.setInfo(asset.id, { syntax: true }, TEST_WRITE);
  core.assets.writes.delete(asset.id, TEST_WRITE);
  return asset.id;
}

test('entries older than the retention period are deleted for good with their revisions; younger ones stay', async () => {
  await withCore(
    async (core) => {
      const old = await trashed(core, 'old');
      const conversation = core.conversations.create({ type: 'COPILOT', messages: [{ role: 'USER', fragment: { string: { raw: 'old talk' } } }] }, false, TEST_WRITE).id;
      core.conversations.delete(conversation, TEST_WRITE);
      const item = core.trash.get(old);
      assert.equal(Date.parse(item.expires!) - Date.parse(item.deleted), 7 * DAY);
      assert.equal(await core.trash.retention.purgeExpired(Date.now() + 6 * DAY), 0);
      assert.equal(core.trash.list().total, 2);
      const lastOld = Date.parse(core.trash.get(conversation).deleted);
      await new Promise((resolve) => setTimeout(resolve, 20));
      const young = await trashed(core, 'young');
      assert.equal(await core.trash.retention.purgeExpired(lastOld + 7 * DAY), 2);
      assert.deepEqual(core.trash.list().items.map((entry) => entry.id), [young]);
      assert.throws(() => core.history.list(old), NotFoundError, 'its revisions went with it');
      assert.equal(core.history.list(young).revisions.length, 2);
      assert.equal(count(core, 'SELECT count(*) AS n FROM snippet_facts WHERE asset_id = ?', old), 0);
      assert.equal(count(core, 'SELECT count(*) AS n FROM trash_messages'), 0);
    },
    { trash: { retentionDays: 7, firstPassMs: 3_600_000 } },
  );
});

test('the background pass deletes expired entries by itself', async () => {
  let clock = Date.now();
  await withCore(
    async (core) => {
      const id = await trashed(core, 'aging');
      clock += 2 * DAY;
      const deadline = Date.now() + 10_000;
      while (core.trash.list().total > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      assert.equal(core.trash.list().total, 0, 'the pass ran');
      assert.throws(() => core.history.list(id), NotFoundError);
    },
    { trash: { retentionDays: 1, firstPassMs: 50, passEveryMs: 50, now: () => clock } },
  );
});

test('a retention of 0 keeps entries until the trash is emptied', async () => {
  await withCore(
    async (core) => {
      const id = await trashed(core, 'kept');
      assert.equal(core.trash.get(id).expires, null);
      assert.equal(core.trash.list().retentionDays, 0);
      assert.equal(await core.trash.retention.purgeExpired(Date.now() + 10_000 * DAY), 0);
      assert.equal(core.trash.list().total, 1);
    },
    { trash: { retentionDays: 0 } },
  );
});

test('Delete Forever removes the entry, its revisions, the texts only they kept and its snippet facts', async () => {
  await withCore(async (core) => {
    const keep = await core.assets.writes.create(codeSeed('export const keep = 1;\n', 'keep'), { author: TEST_AUTHOR });
    const id = await trashed(core, 'doomed');
    assert.ok(count(core, 'SELECT count(*) AS n FROM revisions WHERE asset_id = ?', id) >= 2);
    const texts = count(core, 'SELECT count(*) AS n FROM revision_texts');
    const deleted = core.trash.deleteForever(id);
    assert.deepEqual(deleted, { id, kind: 'asset', revisions: 2 });
    assert.equal(count(core, 'SELECT count(*) AS n FROM revisions WHERE asset_id = ?', id), 0);
    assert.ok(count(core, 'SELECT count(*) AS n FROM revision_texts') < texts);
    assert.equal(count(core, 'SELECT count(*) AS n FROM snippet_facts WHERE asset_id = ?', id), 0);
    assert.equal(count(core, 'SELECT count(*) AS n FROM trash_links') + count(core, 'SELECT count(*) AS n FROM trash_records'), 0);
    assert.throws(() => core.trash.deleteForever(id), NotFoundError);
    assert.throws(() => core.trash.restore(id, TEST_WRITE), NotFoundError);
    assert.equal(core.history.list(keep.id).revisions.length, 1, 'other assets keep theirs');

    const conversation = core.conversations.create({ type: 'COPILOT', messages: [{ role: 'USER', fragment: { string: { raw: 'bye' } } }] }, false, TEST_WRITE).id;
    core.conversations.delete(conversation, TEST_WRITE);
    assert.deepEqual(core.trash.deleteForever(conversation), { id: conversation, kind: 'conversation', revisions: 0 });
    assert.equal(count(core, 'SELECT count(*) AS n FROM trash_messages'), 0);
  });
});

test('emptying the trash deletes every entry for good, takes a backup first when that is a mass delete, and reports progress', async () => {
  await withCore(async (core) => {
    const live = await core.assets.writes.create(codeSeed('export const stays = 1;\n', 'stays'), { author: TEST_AUTHOR });
    const ids: string[] = [];
    for (let i = 0; i < 24; i++) ids.push(await trashed(core, `bulk${i}`));
    const conversation = core.conversations.create({ type: 'COPILOT', name: 'also trashed' }, false, TEST_WRITE).id;
    core.conversations.delete(conversation, TEST_WRITE);
    const progress: number[] = [];
    const emptied = await core.trash.empty({ onProgress: (step) => progress.push(step.deleted) });
    assert.equal(emptied.deleted, 25);
    assert.match(emptied.backup ?? '', /^before-delete-empty-trash-/);
    assert.ok(core.backups.list().some((backup) => backup.name === emptied.backup));
    assert.equal(progress[0], 0);
    assert.equal(progress.at(-1), 25);
    assert.ok(progress.length >= 3, `${progress.length} progress reports`);
    assert.equal(core.trash.list().total, 0);
    assert.equal(count(core, 'SELECT count(*) AS n FROM revisions WHERE asset_id <> ?', live.id), 0);
    assert.equal(core.assets.exists(live.id), true);

    // A small trash: no backup.
    await trashed(core, 'single');
    assert.deepEqual(await core.trash.empty(), { deleted: 1 });
  });
});

test('a library deleted whole is still backed up before the trash is emptied', async () => {
  await withCore(async (core) => {
    for (let i = 0; i < 24; i++) await trashed(core, `whole${i}`);
    assert.equal(core.assets.count(), 0, 'nothing is live: everything the user has is in the trash');
    const emptied = await core.trash.empty();
    assert.equal(emptied.deleted, 24);
    assert.match(emptied.backup ?? '', /^before-delete-empty-trash-/, 'a copy was kept first');
  });
});

test('a cancelled empty stops between steps; what it deleted stays deleted, the rest stays in the trash', async () => {
  await withCore(
    async (core) => {
      for (let i = 0; i < 40; i++) await trashed(core, `cancel${i}`);
      const abort = new AbortController();
      await assert.rejects(
        core.trash.empty({ signal: abort.signal, onProgress: (step) => step.deleted >= 16 && abort.abort(new Error('stop')) }),
        /stop/,
      );
      const left = core.trash.list().total;
      assert.ok(left > 0 && left < 40, `${left} left`);
    },
    { keepBackups: 0 },
  );
});
