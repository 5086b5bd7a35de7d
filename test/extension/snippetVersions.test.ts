/**
 * The `satchel:` documents' versions against a real host, apart from VS Code: what `stat` reports
 * makes VS Code's own save check (validateWriteFile: the mtime moved on and the size differs)
 * see every change made elsewhere to the document's text, and no change made only to the rest of
 * the snippet; writes are conditional, keep what others changed of the snippet's other parts, and
 * land on disk before they resolve; Overwrite writes over the version the user was shown.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer } from '../support/helpers.ts';
import { SatchelClient } from '../../src/client/satchelClient.ts';
import { authorOf } from '../../src/core/history/authors.ts';
import { clientSnippetStore } from '../../src/extension/editing/snippetStore.ts';
import { SnippetChangedError, SnippetVersions, type SnippetStat, type SnippetStore } from '../../src/extension/editing/snippetVersions.ts';
import { contentLocation, descriptionLocation, parseSnippetLocation, renameOf } from '../../src/extension/editing/snippetPaths.ts';

const application = { id: 'satchel-test', name: 'VS_CODE', version: '1', platform: 'LINUX', onboarded: true, privacy: 'OPEN' } as const;
const bytes = (text: string) => new TextEncoder().encode(text);
const text = (data: Uint8Array) => new TextDecoder().decode(data);

/** VS Code's own check before a save (fileService.ts validateWriteFile, with its etag()). */
function vscodeReportsConflict(loaded: SnippetStat, now: SnippetStat): boolean {
  const etag = (stat: { mtime: number; size: number }) => stat.mtime.toString(29) + stat.size.toString(31);
  return loaded.mtime < now.mtime && etag(loaded) !== etag({ mtime: loaded.mtime, size: now.size });
}

async function withHost(run: (context: { client: SatchelClient; other: SatchelClient; versions: SnippetVersions; id: string }) => Promise<void>): Promise<void> {
  const server = await startTestServer();
  const client = new SatchelClient(server.url, { author: authorOf('vscode', 'Satchel for VS Code') });
  const other = new SatchelClient(server.url, { author: authorOf('agent', 'another window') });
  try {
    const asset = await client.assets.createFromText({ text: 'const retries = 3;\n', application, language: 'ts', name: 'retries' });
    await run({ client, other, versions: new SnippetVersions(clientSnippetStore(() => client)), id: asset.id });
  } finally {
    client.dispose();
    other.dispose();
    await server.close();
  }
}

test('edit and save: the store holds the new text when the write resolves; the mtime moves on', async () => {
  await withHost(async ({ client, versions, id }) => {
    const loaded = await versions.stat(id, 'content');
    assert.equal(text(await versions.read(id, 'content')), 'const retries = 3;\n');
    assert.equal(loaded.size, 19);
    assert.equal(loaded.name, 'retries');
    assert.equal(loaded.language, 'ts');
    const before = await versions.stat(id, 'content');
    assert.equal(vscodeReportsConflict(loaded, before), false, 'nothing changed: no conflict');
    await versions.write(id, 'content', bytes('const retries = 5;\n'));
    assert.equal((await client.assets.get(id)).formats?.iterable?.[0]?.fragment?.string?.raw, 'const retries = 5;\n');
    const after = await versions.stat(id, 'content');
    assert.ok(after.mtime > loaded.mtime, 'a saved document is newer');
    const revisions = await client.history.list(id);
    assert.deepEqual(revisions.revisions[0]!.author, { kind: 'vscode', name: 'Satchel for VS Code' });
    assert.deepEqual(revisions.revisions[0]!.changes, ['content']);
  });
});

test('a change made elsewhere to the text is a conflict for VS Code, even at the same length', async () => {
  await withHost(async ({ client, other, versions, id }) => {
    await versions.read(id, 'content');
    const loaded = await versions.stat(id, 'content');
    // One character fixed elsewhere: the same size, which VS Code's size check alone lets through.
    await other.history.edit(id, { content: 'const retries = 4;\n' });
    const changed = await versions.stat(id, 'content');
    assert.ok(changed.mtime > loaded.mtime);
    assert.ok(vscodeReportsConflict(loaded, changed), 'VS Code shows Compare / Overwrite');
    // The document reloads (an unmodified one does on the change event): the true size again, no conflict.
    assert.equal(text(await versions.read(id, 'content')), 'const retries = 4;\n');
    const reloaded = await versions.stat(id, 'content');
    assert.equal(reloaded.size, 19);
    assert.equal(vscodeReportsConflict(reloaded, await versions.stat(id, 'content')), false);
    // A longer change is a conflict too.
    await other.history.edit(id, { content: 'const retries = 10; // more\n' });
    assert.ok(vscodeReportsConflict(reloaded, await versions.stat(id, 'content')));
    // Overwrite: VS Code stats, skips its check and writes; the write is over the version it was shown.
    await versions.write(id, 'content', bytes('const retries = 6;\n'));
    assert.equal((await client.assets.get(id)).formats?.iterable?.[0]?.fragment?.string?.raw, 'const retries = 6;\n');
  });
});

test('Compare reads the stored side while the document has unsaved edits: the next save still conflicts', async () => {
  await withHost(async ({ client, other, versions, id }) => {
    await versions.read(id, 'content');
    const loaded = await versions.stat(id, 'content');
    await other.history.edit(id, { content: 'const retries = 4;\n' });
    assert.ok(vscodeReportsConflict(loaded, await versions.stat(id, 'content')), 'the first save conflicts');
    // Compare: VS Code reads the stored text for the left side; the document keeps its own.
    assert.equal(text(await versions.read(id, 'content', { load: false })), 'const retries = 4;\n');
    assert.ok(vscodeReportsConflict(loaded, await versions.stat(id, 'content')), 'saving again conflicts again');
    assert.equal((await client.assets.get(id)).formats?.iterable?.[0]?.fragment?.string?.raw, 'const retries = 4;\n');
  });
});

test('a rename or new tags elsewhere change nothing VS Code sees; the save keeps them', async () => {
  await withHost(async ({ client, other, versions, id }) => {
    await versions.read(id, 'content');
    const loaded = await versions.stat(id, 'content');
    await other.history.edit(id, { name: 'retry count', tags: ['http'], description: 'How often to retry' });
    const now = await versions.stat(id, 'content');
    assert.equal(now.mtime, loaded.mtime, 'the code did not change: no reload, no conflict');
    assert.equal(now.size, loaded.size);
    assert.equal(now.name, 'retry count');
    await versions.write(id, 'content', bytes('const retries = 7;\n'));
    const asset = await client.assets.get(id);
    assert.equal(asset.name, 'retry count');
    assert.equal(asset.formats?.iterable?.[0]?.fragment?.string?.raw, 'const retries = 7;\n');
    const info = await client.snippets.info(id);
    assert.deepEqual(info.tags, ['http']);
    assert.equal(info.description, 'How often to retry');
    // The same between VS Code's check and the write: the write goes on at the current revision.
    await versions.stat(id, 'content');
    await other.history.edit(id, { name: 'retries again', tags: ['http', 'retry'] });
    await versions.write(id, 'content', bytes('const retries = 8;\n'));
    const later = await client.assets.get(id);
    assert.equal(later.name, 'retries again');
    assert.equal(later.formats?.iterable?.[0]?.fragment?.string?.raw, 'const retries = 8;\n');
  });
});

test('a change landing between VS Code\'s check and the write is refused, not overwritten; the next save conflicts', async () => {
  await withHost(async ({ client, other, versions, id }) => {
    await versions.read(id, 'content');
    const loaded = await versions.stat(id, 'content');
    await versions.stat(id, 'content'); // VS Code's check before the save passes…
    await other.history.edit(id, { content: 'const retries = 9;\n' }); // …then another window writes.
    await assert.rejects(versions.write(id, 'content', bytes('const retries = 1;\n')), SnippetChangedError);
    assert.equal((await client.assets.get(id)).formats?.iterable?.[0]?.fragment?.string?.raw, 'const retries = 9;\n', 'the other write stays');
    assert.ok(vscodeReportsConflict(loaded, await versions.stat(id, 'content')), 'saving again brings up Compare / Overwrite');
  });
});

test('the description is a document of its own; writing it leaves the code\'s document as it was', async () => {
  await withHost(async ({ client, versions, id }) => {
    assert.equal(text(await versions.read(id, 'description')), '');
    const code = await versions.stat(id, 'content');
    await versions.write(id, 'description', bytes('Retries **three** times.\n'));
    assert.equal((await client.snippets.info(id)).description, 'Retries **three** times.\n');
    assert.equal((await versions.stat(id, 'content')).mtime, code.mtime);
    await versions.write(id, 'description', bytes(''));
    assert.equal((await client.snippets.info(id)).description, undefined, 'an emptied description is removed');
  });
});

test('a document never read is written unconditionally (another extension\'s workspace.fs.writeFile)', async () => {
  await withHost(async ({ client, other, id }) => {
    await other.history.edit(id, { content: 'changed elsewhere\n' });
    const fresh = new SnippetVersions(clientSnippetStore(() => client));
    await fresh.write(id, 'content', bytes('written blind\n'));
    assert.equal((await client.assets.get(id)).formats?.iterable?.[0]?.fragment?.string?.raw, 'written blind\n');
  });
});

test('mtimes only grow, even for writes in one millisecond', async () => {
  let revision = 0;
  let content = 'a';
  const store: SnippetStore = {
    head: async () => ({ revision: `r${revision}`, updated: 1_000, created: 0, readonly: false, name: 'n', language: undefined }),
    read: async () => ({ revision: `r${revision}`, updated: 1_000, created: 0, readonly: false, name: 'n', language: undefined, bytes: bytes(content) }),
    write: async (_id, _part, written) => {
      content = written;
      revision++;
      return { revision: `r${revision}`, updated: 1_000, created: 0, readonly: false, name: 'n', language: undefined };
    },
  };
  const versions = new SnippetVersions(store);
  const first = await versions.stat('x', 'content');
  await versions.write('x', 'content', bytes('b'));
  const second = await versions.stat('x', 'content');
  await versions.write('x', 'content', bytes('c'));
  const third = await versions.stat('x', 'content');
  assert.deepEqual([first.mtime, second.mtime, third.mtime], [1_000, 1_001, 1_002]);
});

test('paths: the code and the description of a snippet, and what a rename asks', () => {
  assert.deepEqual(contentLocation('a1', 'Fetch/retry', 'ts'), { authority: 'a1', path: '/Fetch retry.ts' });
  assert.deepEqual(descriptionLocation('a1', 'Fetch/retry'), { authority: 'a1', path: '/description/Fetch retry.description.md' });
  const at = (path: string) => parseSnippetLocation({ authority: 'a1', path });
  assert.deepEqual(at('/Fetch retry.ts'), { kind: 'file', id: 'a1', part: 'content', fileName: 'Fetch retry.ts' });
  assert.deepEqual(at('/x.description.md'), { kind: 'file', id: 'a1', part: 'content', fileName: 'x.description.md' }, 'a snippet named like a description is code');
  assert.deepEqual(at('/description/x.description.md'), { kind: 'file', id: 'a1', part: 'description', fileName: 'x.description.md' });
  assert.deepEqual(at('/description'), { kind: 'folder', id: 'a1', part: 'description' });
  assert.deepEqual(at('/'), { kind: 'folder', id: 'a1' });
  assert.deepEqual(parseSnippetLocation({ authority: '', path: '/' }), { kind: 'root' });
  assert.equal(parseSnippetLocation({ authority: '', path: '/Fetch retry.ts' }), undefined, 'a document belongs to a snippet');
  assert.equal(at('/other/x.md'), undefined);
  assert.deepEqual(renameOf('content', 'retry.ts', 'retry with backoff.ts'), { name: 'retry with backoff' });
  assert.deepEqual(renameOf('content', 'retry.ts', 'retry.py'), { name: 'retry', language: 'py' });
  assert.deepEqual(renameOf('content', 'retry.ts', 'retry'), { name: 'retry' });
  assert.deepEqual(renameOf('description', 'retry.description.md', 'backoff.description.md'), { name: 'backoff' });
});
