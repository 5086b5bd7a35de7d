/**
 * Revisions: every kind of write that changes an asset's content, name, language, tags or
 * description keeps a revision with its author, other writes keep none, contents are stored once,
 * a restore brings back exactly the old state, and conditional writes refuse a stale revision.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withCore } from '../../support/helpers.ts';
import { TEST_AUTHOR, TEST_WRITE } from '../../support/authors.ts';
import { authorOf } from '../../../src/core/history/authors.ts';
import { RevisionConflictError, NotFoundError } from '../../../src/core/errors.ts';
import { baselineId } from '../../../src/core/history/revisionLog.ts';
import type { Satchel } from '../../../src/core/satchel.ts';
import type { Seed } from '../../../src/core/piecesTypes.ts';

function seed(raw: string, name: string, tags: string[] = [], ext = 'ts'): Seed {
  return {
    type: 'SEEDED_ASSET',
    asset: {
      application: { id: 'test-app', name: 'OPEN_SOURCE', version: '1.0.0', platform: 'LINUX', onboarded: false, privacy: 'OPEN' },
      format: { fragment: { string: { raw }, metadata: { ext: ext as never } } },
      metadata: { name, tags: tags.map((text) => ({ text })) },
    },
  };
}

const vscode = authorOf('vscode', 'Satchel for VS Code');
const agent = authorOf('mcp', 'Claude Code');

function changes(core: Satchel, id: string): string[][] {
  return core.history.list(id).revisions.map((revision) => [...revision.changes]);
}

function textTotals(core: Satchel): { revisions: number; texts: number; textBytes: number } {
  const db = core.context.database;
  const revisions = (db.prepare('SELECT count(*) AS n FROM revisions').get() as { n: number }).n;
  const texts = db.prepare('SELECT count(*) AS n, coalesce(sum(length(data)), 0) AS b FROM revision_texts').get() as { n: number; b: number };
  return { revisions, texts: texts.n, textBytes: texts.b };
}

test('a create is the first revision, by its author; an update, rename, reclassify, format edit and tag change each add one', async () => {
  await withCore(async (core) => {
    const asset = await core.assets.writes.create(seed('const a = 1;\n', 'first', ['alpha']), { author: vscode });
    const created = core.history.list(asset.id);
    assert.equal(created.revisions.length, 1);
    assert.deepEqual(created.revisions[0]!.author, vscode);
    assert.deepEqual(created.revisions[0]!.changes, ['created']);
    assert.equal(created.current, created.revisions[0]!.id);
    assert.equal(core.history.current(asset.id), created.current);

    const formatId = asset.formats.iterable[0]!.id;
    core.assets.writes.update({ id: asset.id, formats: { iterable: [{ id: formatId, fragment: { string: { raw: 'const a = 2;\n' } } }] } }, { author: agent });
    core.assets.writes.update({ id: asset.id, name: 'renamed' }, TEST_WRITE);
    core.assets.writes.reclassify(asset.id, 'js', TEST_WRITE);
    core.assets.writes.updateFormatValue({ id: formatId, fragment: { string: { raw: 'const a = 3;\n' } } }, true, TEST_WRITE);
    const tag = core.assets.writes.createTag({ text: 'beta', asset: asset.id }, TEST_WRITE);
    core.assets.writes.disassociate(asset.id, 'tag', tag.id, { author: agent });
    assert.deepEqual(changes(core, asset.id), [['tags'], ['tags'], ['content'], ['language'], ['name'], ['content'], ['created']]);
    const list = core.history.list(asset.id);
    assert.deepEqual(list.revisions.map((r) => r.author.name), ['Claude Code', 'test', 'test', 'test', 'test', 'Claude Code', 'Satchel for VS Code']);
    // Newest first, ids ordered.
    assert.deepEqual([...list.revisions.map((r) => r.id)].sort().reverse(), list.revisions.map((r) => r.id));
    const second = core.history.get(asset.id, list.revisions[5]!.id);
    assert.equal(second.content.text, 'const a = 2;\n');
    assert.equal(second.name, 'first');
    assert.deepEqual(second.tags, ['alpha']);
    assert.equal(second.current, false);
    assert.equal(core.history.get(asset.id, list.current).content.text, 'const a = 3;\n');
  });
});

test('writes that change none of content, name, language, tags or description make no revision', async () => {
  await withCore(async (core) => {
    const asset = await core.assets.writes.create(seed('let b = 1;\n', 'quiet'), { author: TEST_AUTHOR });
    const before = core.history.current(asset.id);
    core.assets.writes.incrementScores(asset.id, { asset: { reuse: true } });
    core.assets.writes.update({ id: asset.id, favorited: true, score: { manual: 3 } }, TEST_WRITE);
    core.assets.writes.update({ id: asset.id, name: 'quiet' }, TEST_WRITE);
    core.assets.writes.recordActivity(asset.id, { asset: { asset: { id: asset.id }, identifier_description_pair: { asset_referenced: 'x' } } });
    const website = core.assets.writes.createWebsite({ url: 'https://example.com', name: 'example', asset: asset.id }, TEST_WRITE);
    core.assets.writes.disassociate(asset.id, 'website', website.id, TEST_WRITE);
    core.assets.writes.edit(asset.id, { name: 'quiet', tags: [] }, TEST_WRITE);
    assert.equal(core.history.current(asset.id), before);
    assert.equal(core.history.list(asset.id).revisions.length, 1);
  });
});

test('descriptions: set, changed and removed through an edit or the annotation routes are revisions', async () => {
  await withCore(async (core) => {
    const asset = await core.assets.writes.create(seed('fn main() {}\n', 'described', [], 'rs'), { author: TEST_AUTHOR });
    core.assets.writes.edit(asset.id, { description: 'The entry point.' }, { author: vscode });
    core.assets.writes.edit(asset.id, { description: 'The entry point, empty.' }, TEST_WRITE);
    const list = core.history.list(asset.id);
    assert.deepEqual(changes(core, asset.id), [['description'], ['description'], ['created']]);
    assert.equal(core.history.get(asset.id, list.revisions[1]!.id).description, 'The entry point.');
    assert.equal(core.history.get(asset.id, list.revisions[2]!.id).description, undefined);
    // The annotation kept for it is the one the interface lists and deletes.
    const annotation = core.conversations.records.annotations('DESCRIPTION').iterable.find((a) => a.text === 'The entry point, empty.');
    assert.ok(annotation);
    core.conversations.records.delete('annotation', annotation.id, { author: agent });
    const after = core.history.list(asset.id);
    assert.deepEqual(after.revisions[0]!.changes, ['description']);
    assert.deepEqual(after.revisions[0]!.author, agent);
    assert.equal(core.history.get(asset.id, after.current).description, undefined);
  });
});

test('an edit changes content, name, language, tags and description in one revision', async () => {
  await withCore(async (core) => {
    const asset = await core.assets.writes.create(seed('x = 1\n', 'before', ['one', 'two'], 'py'), { author: TEST_AUTHOR });
    const { asset: edited, revision } = core.assets.writes.edit(
      asset.id,
      { content: { text: 'puts 1\n' }, name: 'after', language: 'rb', tags: ['Two', 'three'], description: 'Ruby now.' },
      { author: agent, expectedRevision: core.history.current(asset.id) },
    );
    assert.equal(revision, core.history.current(asset.id));
    assert.equal(edited.name, 'after');
    assert.equal(edited.formats.iterable[0]?.fragment?.string?.raw, 'puts 1\n');
    assert.equal(edited.formats.iterable[0]?.classification.specific, 'rb');
    assert.deepEqual(edited.tags?.iterable.map((t) => t.text).sort(), ['three', 'two']);
    assert.deepEqual(core.history.list(asset.id).revisions[0]!.changes, ['content', 'name', 'language', 'tags', 'description']);
    // The search index follows the edit (tags and content).
    assert.ok(core.assets.searches.search({ query: 'puts' }, { transferables: false, pseudo: false }).iterable.some((hit) => hit.asset?.id === asset.id));
  });
});

test('restore brings back exactly the old state, is itself a revision, and restoring the current state changes nothing', async () => {
  await withCore(async (core) => {
    const asset = await core.assets.writes.create(seed('const old = true;\n', 'original', ['keep', 'drop']), { author: TEST_AUTHOR });
    core.assets.writes.edit(asset.id, { description: 'first words' }, TEST_WRITE);
    const good = core.history.current(asset.id);
    const goodState = core.history.get(asset.id, good);
    core.assets.writes.edit(asset.id, { content: { text: 'const old = false; // broken\n' }, name: 'broken', language: 'js', tags: ['new'], description: '' }, { author: agent });
    const restored = core.history.restore(asset.id, good, { author: vscode });
    assert.equal(restored.restoredFrom, good);
    assert.deepEqual(restored.author, vscode);
    assert.notEqual(restored.id, good);
    const now = core.history.get(asset.id, restored.id);
    for (const key of ['content', 'name', 'language', 'description'] as const) assert.deepEqual(now[key], goodState[key], key);
    assert.deepEqual([...now.tags].sort(), [...goodState.tags].sort());
    const rendered = core.assets.get(asset.id);
    assert.equal(rendered.name, 'original');
    assert.equal(rendered.formats.iterable[0]?.fragment?.string?.raw, 'const old = true;\n');
    assert.deepEqual(rendered.tags?.iterable.map((t) => t.text).sort(), ['drop', 'keep']);
    assert.equal(core.history.list(asset.id).revisions.length, 4);
    const again = core.history.restore(asset.id, restored.id, TEST_WRITE);
    assert.equal(again.id, restored.id);
    assert.equal(core.history.list(asset.id).revisions.length, 4);
    assert.throws(() => core.history.restore(asset.id, 'no-such-revision', TEST_WRITE), NotFoundError);
  });
});

test('a binary content round-trips through a revision and a restore', async () => {
  await withCore(async (core) => {
    const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 1, 2, 255];
    const asset = await core.assets.writes.create({ asset: { format: { file: { bytes: { raw: png } } } } }, { author: TEST_AUTHOR });
    const first = core.history.current(asset.id);
    core.assets.writes.edit(asset.id, { content: { text: '', bytes: [...png.slice(0, 8), 9, 9] } }, TEST_WRITE);
    assert.deepEqual(core.history.get(asset.id, first).content.bytes, png);
    core.history.restore(asset.id, first, TEST_WRITE);
    assert.deepEqual(core.assets.get(asset.id).formats.iterable[0]?.file?.bytes?.raw, png);
  });
});

test('contents are stored once: a rename of a large snippet stores no content, a content change stores the replaced one', async () => {
  await withCore(async (core) => {
    const big = `// large\n${'const filler = 0x1234;\n'.repeat(100_000)}`;
    const asset = await core.assets.writes.create(seed(big, 'large'), { author: TEST_AUTHOR });
    const created = textTotals(core);
    assert.equal(created.textBytes, 0, 'the current content lives in the asset only');
    for (let i = 0; i < 5; i++) core.assets.writes.update({ id: asset.id, name: `large ${i}` }, TEST_WRITE);
    const renamed = textTotals(core);
    assert.equal(renamed.revisions, created.revisions + 5);
    assert.equal(renamed.textBytes, 0, 'five renames stored no content');
    core.assets.writes.edit(asset.id, { content: { text: 'small now' } }, TEST_WRITE);
    const changed = textTotals(core);
    assert.deepEqual([changed.texts, changed.textBytes], [1, Buffer.byteLength(big)], 'the replaced content is kept once, as it was');
    // The compactor packs it afterwards, off the write (deflated on the thread pool).
    await core.history.compactor.idle();
    const packed = textTotals(core).textBytes;
    assert.ok(packed > 0 && packed < Buffer.byteLength(big) / 10, `kept deflated (${packed} bytes)`);
    core.assets.writes.edit(asset.id, { content: { text: big } }, TEST_WRITE);
    core.assets.writes.edit(asset.id, { content: { text: 'small now' } }, TEST_WRITE);
    assert.deepEqual([textTotals(core).texts, textTotals(core).textBytes], [2, packed + Buffer.byteLength('small now')], 'a content seen before is not stored again');
    assert.equal(core.history.get(asset.id, core.history.list(asset.id).revisions.at(-1)!.id).content.text, big);
  });
});

test('expected revisions: a write based on a stale revision is refused and changes nothing; two writers on one revision, one wins', async () => {
  await withCore(async (core) => {
    const asset = await core.assets.writes.create(seed('let shared = 0;\n', 'shared'), { author: TEST_AUTHOR });
    const read = core.history.current(asset.id);
    const formatId = asset.formats.iterable[0]!.id;
    const attempts = [authorOf('mcp', 'agent one'), authorOf('mcp', 'agent two')].map((author, i) => {
      try {
        return core.assets.writes.update({ id: asset.id, formats: { iterable: [{ id: formatId, fragment: { string: { raw: `let shared = ${i + 1};\n` } } }] } }, { author, expectedRevision: read });
      } catch (error) {
        return error;
      }
    });
    assert.ok(!(attempts[0] instanceof Error), 'the first writer wins');
    assert.ok(attempts[1] instanceof RevisionConflictError, 'the second gets the conflict');
    const conflict = attempts[1] as RevisionConflictError;
    assert.equal(conflict.expected, read);
    assert.equal(conflict.current, core.history.current(asset.id));
    // Nothing lost: the original and the winner's version are both in the history; the loser's is nowhere.
    const list = core.history.list(asset.id);
    assert.deepEqual(list.revisions.map((r) => core.history.get(asset.id, r.id).content.text), ['let shared = 1;\n', 'let shared = 0;\n']);
    // The loser reads again and retries on the current revision.
    core.assets.writes.update({ id: asset.id, formats: { iterable: [{ id: formatId, fragment: { string: { raw: 'let shared = 2;\n' } } }] } }, { author: authorOf('mcp', 'agent two'), expectedRevision: conflict.current });
    assert.equal(core.history.list(asset.id).revisions.length, 3);
    for (const write of [
      () => core.assets.writes.edit(asset.id, { name: 'x' }, { author: TEST_AUTHOR, expectedRevision: read }),
      () => core.assets.writes.delete(asset.id, { author: TEST_AUTHOR, expectedRevision: read }),
      () => core.history.restore(asset.id, read, { author: TEST_AUTHOR, expectedRevision: read }),
      () => core.assets.writes.associate(asset.id, 'tag', core.assets.labels.createTag({ text: 't' }).id, { author: TEST_AUTHOR, expectedRevision: read }),
    ]) {
      assert.throws(write, RevisionConflictError);
    }
    assert.equal(core.history.list(asset.id).revisions.length, 3);
    assert.equal(core.assets.get(asset.id).name, 'shared');
  });
});

test('an asset written before revisions were kept: a fixed first id, made real by its first write', async () => {
  await withCore(async (core) => {
    const asset = await core.assets.writes.create(seed('old = "asset"\n', 'older', ['legacy'], 'py'), { author: TEST_AUTHOR });
    core.context.database.db.prepare('DELETE FROM revisions').run();
    const baseline = baselineId(asset.id);
    assert.equal(core.history.current(asset.id), baseline);
    const listed = core.history.list(asset.id);
    assert.deepEqual(listed.revisions.map((r) => [r.id, r.author.kind, r.name]), [[baseline, 'unknown', 'older']]);
    assert.equal(core.history.get(asset.id, baseline).content.text, 'old = "asset"\n');
    // A tag change: the state before it (with its one tag) becomes the first revision, under the same id.
    const tag = core.assets.labels.createTag({ text: 'added' });
    core.assets.writes.associate(asset.id, 'tag', tag.id, { author: vscode, expectedRevision: baseline });
    const after = core.history.list(asset.id);
    assert.equal(after.revisions.length, 2);
    assert.equal(after.revisions[1]!.id, baseline);
    assert.deepEqual(core.history.get(asset.id, baseline).tags, ['legacy']);
    assert.deepEqual([...core.history.get(asset.id, after.current).tags].sort(), ['added', 'legacy']);
  });
});

test('a deleted asset keeps its revisions, its last content included, until they are purged', async () => {
  await withCore(async (core) => {
    const asset = await core.assets.writes.create(seed('const gone = 1;\n', 'gone'), { author: TEST_AUTHOR });
    core.assets.writes.edit(asset.id, { content: { text: 'const gone = 2;\n' } }, TEST_WRITE);
    core.assets.writes.delete(asset.id, { author: agent, expectedRevision: core.history.current(asset.id) });
    const list = core.history.list(asset.id);
    assert.equal(list.deleted, true);
    assert.deepEqual(list.revisions.map((r) => core.history.get(asset.id, r.id).content.text), ['const gone = 2;\n', 'const gone = 1;\n']);
    assert.throws(() => core.history.restore(asset.id, list.revisions[1]!.id, TEST_WRITE), NotFoundError);
    assert.equal(core.history.purge(asset.id), 2);
    assert.throws(() => core.history.list(asset.id), NotFoundError);
    assert.equal(textTotals(core).texts, 0, 'purged revisions leave no text behind');
  });
});
