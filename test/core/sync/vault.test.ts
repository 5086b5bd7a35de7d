/** The plain-file vault: a library exported and imported back is the same library, field by field and byte by byte. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { tempDir, withCore } from '../../support/helpers.ts';
import { exportVault } from '../../../src/core/sync/vaultExport.ts';
import { vaultParts } from '../../../src/core/sync/vaultImport.ts';
import { assetDir, assetFiles, parseAsset, type VaultAsset } from '../../../src/core/sync/vaultFormat.ts';
import { allConversations, allRecords, conversationsOf, PNG_BYTES, recordsOf, variedLibrary } from './vaultSupport.ts';
import { conversationDir } from '../../../src/core/sync/vaultConversations.ts';
import type { Satchel } from '../../../src/core/satchel.ts';
import { TEST_WRITE } from '../../support/authors.ts';
import { LIMITS } from '../../../src/core/limits.ts';

async function exportTo(core: Satchel, dir: string): Promise<void> {
  const ids = core.assets.identifiers();
  const summary = await exportVault(dir, recordsOf(core), [ids], ids.length, { conversations: conversationsOf(core) });
  assert.equal(summary.exported, ids.length);
  assert.equal(summary.conversations, conversationsOf(core).ids().length);
}

async function importFrom(core: Satchel, dir: string) {
  return core.imports.import(vaultParts(dir).map((part) => ({ name: part.name, parsed: part.read() })));
}

function filesUnder(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (at: string): void => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else out.set(relative(dir, path), readFileSync(path).toString('base64'));
    }
  };
  walk(dir);
  return out;
}

function comparable(record: VaultAsset): Record<string, unknown> {
  return { ...record, content: typeof record.content === 'string' ? record.content : [...record.content] };
}

test('a library exported as a vault and imported into an empty one is the same library: every field, ids and times included', async () => {
  const dir = join(tempDir('satchel-vault-'), 'vault');
  try {
    let before: Map<string, VaultAsset> = new Map();
    let conversations = new Map<string, unknown>();
    let ids: string[] = [];
    await withCore(async (a) => {
      ids = await variedLibrary(a);
      before = allRecords(a);
      conversations = allConversations(a);
      await exportTo(a, dir);
    });
    assert.equal(conversations.size, 2);
    const talk = join(dir, ...conversationDir(ids[6]!).split('/'));
    assert.equal(readdirSync(talk).filter((name) => name.startsWith('message-')).length, 2);
    assert.match(readFileSync(join(talk, 'conversation.md'), 'utf8'), /^---\nid: "[^"]+"\nname: "About the plain snippet"\ntype: "COPILOT"\nfavorited: true\nassets:\n {2}- "/);
    assert.equal(before.size, 6);
    // What a reader of the directory sees: one folder per asset, named by its id, the code with its extension.
    const plainDir = join(dir, ...assetDir(ids[0]!).split('/'));
    assert.deepEqual(readdirSync(plainDir).sort(), ['code.ts', 'snippet.md']);
    assert.equal(readFileSync(join(plainDir, 'code.ts'), 'utf8'), 'export const x = 1;\n');
    const meta = readFileSync(join(plainDir, 'snippet.md'), 'utf8');
    assert.match(meta, /^---\nid: "[0-9a-f-]+"\nname: "Plain"\nlanguage: "ts"\ntags:\n {2}- "Alpha"\n {2}- "zeta"\nwebsites:\n {2}- url: "https:\/\/example.com\/a"\n/);
    assert.ok(meta.endsWith('---\nLine one of the description\n\n---\nnot front matter\n'));
    assert.deepEqual([...readFileSync(join(dir, ...assetDir(ids[5]!).split('/'), 'code.png'))], PNG_BYTES);

    await withCore(async (b) => {
      const summary = await importFrom(b, dir);
      assert.equal(summary.imported, 6, JSON.stringify(summary.failures));
      assert.equal(summary.failed, 0);
      assert.equal(summary.conversations, 2);
      assert.deepEqual(allConversations(b), conversations);
      assert.equal(b.conversations.get(ids[6]!, true).assets?.iterable?.[0]?.id, ids[0]);
      const after = allRecords(b);
      assert.deepEqual([...after.keys()].sort(), [...before.keys()].sort());
      for (const [id, record] of before) assert.deepEqual(comparable(after.get(id)!), comparable(record), `asset ${record.name}`);
      // The store's own views agree: tags, favorite, snippet facts, search.
      const unicode = b.assets.get(ids[2]!);
      assert.equal(unicode.favorited, true);
      assert.equal(b.snippets.info(ids[4]!).syntax, true);
      assert.ok(b.assets.searches.search({ query: 'Plain' }, { transferables: false, pseudo: false }).iterable.some((hit) => hit.asset?.id === ids[0]));
      // Importing the same vault again changes nothing and says so.
      const again = await importFrom(b, dir);
      assert.deepEqual([again.imported, again.updated, again.duplicates, again.conversations ?? 0], [0, 0, 6, 0]);
      // A second export of the imported library is the first one, byte for byte.
      const second = join(dir, '..', 'second');
      await exportTo(b, second);
      assert.deepEqual(filesUnder(second), filesUnder(dir));
    });
  } finally {
    rmSync(join(dir, '..'), { recursive: true, force: true });
  }
});

test('importing a vault over a library sets each asset to its record (a revision by the import) and keeps the others', async () => {
  const dir = join(tempDir('satchel-vault-'), 'vault');
  try {
    await withCore(async (core) => {
      const [plain, crlf] = await variedLibrary(core);
      await exportTo(core, dir);
      core.assets.writes.edit(plain!, { name: 'Renamed meanwhile', tags: ['other'], description: '' }, TEST_WRITE);
      core.assets.writes.delete(crlf!, TEST_WRITE);
      const summary = await importFrom(core, dir);
      assert.deepEqual([summary.imported, summary.updated, summary.duplicates], [1, 1, 4]);
      const record = recordsOf(core).read(plain!)!;
      assert.equal(record.name, 'Plain');
      assert.deepEqual(record.tags, ['Alpha', 'zeta']);
      assert.match(record.description ?? '', /^Line one/);
      const revisions = core.history.list(plain!);
      assert.equal(revisions.revisions[0]?.author.kind, 'import');
      assert.ok(recordsOf(core).read(crlf!), 'the deleted asset is back under its id');
    });
  } finally {
    rmSync(join(dir, '..'), { recursive: true, force: true });
  }
});

test('a folder that is not a record fails alone; hand-written YAML (unquoted, a tag as one string) is read', async () => {
  const dir = join(tempDir('satchel-vault-'), 'vault');
  try {
    mkdirSync(join(dir, 'assets', 'aa', 'hand-made'), { recursive: true });
    writeFileSync(join(dir, 'satchel.json'), '{"format":1}\n');
    writeFileSync(join(dir, 'assets', 'aa', 'hand-made', 'snippet.md'), '---\nname: Typed on the web\ntags: web\nupdated: 2025-01-02T03:04:05Z\n---\n');
    writeFileSync(join(dir, 'assets', 'aa', 'hand-made', 'code.py'), 'print("hi")\n');
    mkdirSync(join(dir, 'assets', 'aa', 'broken'), { recursive: true });
    writeFileSync(join(dir, 'assets', 'aa', 'broken', 'snippet.md'), '---\nname: [unclosed\n---\n');
    writeFileSync(join(dir, 'assets', 'aa', 'broken', 'code.py'), 'x = 1\n');
    await withCore(async (core) => {
      const summary = await importFrom(core, dir);
      assert.equal(summary.imported, 1);
      assert.equal(summary.failed, 1);
      assert.match(summary.failures[0]!.source, /broken/);
      const record = recordsOf(core).read('hand-made')!;
      assert.deepEqual([record.name, record.language, record.tags, record.created, record.updated], ['Typed on the web', 'py', ['web'], '2025-01-02T03:04:05Z', '2025-01-02T03:04:05Z']);
    });
  } finally {
    rmSync(join(dir, '..'), { recursive: true, force: true });
  }
});

test('records and files: one record makes the same bytes every time, and the files make the record again', () => {
  const record: VaultAsset = {
    id: 'x',
    name: 'N: "q" \u2028',
    language: 'sh',
    tags: ['a', 'B'],
    websites: [{ url: 'u', name: 'n' }],
    description: 'd\n',
    created: '2020-01-01T00:00:00.000Z',
    updated: '2021-01-01T00:00:00Z',
    favorited: true,
    syntax: true,
    prefixes: ['p'],
    conflictOf: 'y',
    content: 'echo hi\r\n',
  };
  const files = assetFiles(record);
  assert.deepEqual(files.map((f) => f.name), ['code.sh', 'snippet.md']);
  assert.deepEqual(assetFiles(record), files);
  assert.deepEqual(parseAsset('x', files), record);
  assert.ok(!existsSync('/nonexistent'));
});

test('a vault conversation with a message over the message limit fails alone on import; the others are written', async () => {
  const dir = join(tempDir('satchel-vault-'), 'vault');
  try {
    let ids: string[] = [];
    await withCore(async (a) => {
      ids = await variedLibrary(a);
      await exportTo(a, dir);
    });
    const talk = ids[6]!;
    const parts = vaultParts(dir).map((part) => {
      const parsed = part.read();
      const conversations = parsed.conversations?.map((record) =>
        record.id === talk ? { ...record, messages: record.messages.map((message, i) => (i === 0 ? { ...message, text: 'x'.repeat(LIMITS.messageChars + 1) } : message)) } : record,
      );
      return { name: part.name, parsed: { ...parsed, ...(conversations ? { conversations } : {}) } };
    });
    await withCore(async (b) => {
      const summary = await b.imports.import(parts);
      assert.equal(summary.failed, 1);
      assert.match(summary.failures[0]!.source, new RegExp(talk));
      assert.match(summary.failures[0]!.reason, /conversation message/i);
      assert.equal(conversationsOf(b).read(talk), undefined, 'nothing of it is stored');
      assert.equal(allConversations(b).size, 1, 'the other conversation is written');
    });
  } finally {
    rmSync(join(dir, '..'), { recursive: true, force: true });
  }
});
