/**
 * Memories in core: an agent's memory is an asset marked as one, with its project, links and the
 * files it cites stamped as they were; through the agent changes review when writes wait for it;
 * and on recall, a cited file that changed or went (in a git work tree or a plain folder) makes it
 * "may be stale".
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir, withCore } from '../../support/helpers.ts';
import { authorOf } from '../../../src/core/history/authors.ts';
import { InvalidInputError, TooLargeError } from '../../../src/core/errors.ts';
import { FileStamps } from '../../../src/core/memories/fileStamps.ts';
import { MAX_MEMORY_FILES } from '../../../src/core/memories/memoryInputs.ts';

const claude = authorOf('mcp', 'Claude Code');
const user = authorOf('vscode', 'Satchel for VS Code');

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' } });
}

function gitRepo(): string {
  const dir = tempDir('satchel-memory-repo-');
  git(dir, 'init', '-q');
  mkdirSync(join(dir, 'src'));
  writeFileSync(join(dir, 'src', 'cache.ts'), 'export const ttl = 3600;\n');
  writeFileSync(join(dir, 'src', 'other.ts'), 'export const other = 1;\n');
  git(dir, 'add', '.');
  git(dir, 'commit', '-q', '-m', 'first');
  return dir;
}

test('a memory is a Markdown asset marked as one, with its project, links and cited files stamped with their hash and git commit', async () => {
  const repo = gitRepo();
  const head = git(repo, 'rev-parse', 'HEAD').trim();
  await withCore(async (core) => {
    const saved = await core.memories.save(
      {
        title: 'Search API Redis caching',
        summary: '# Caching\n\nTTL is one hour; invalidated on product updates.',
        project: repo,
        files: [join(repo, 'src', 'cache.ts'), 'src', 'src/missing.ts'],
        links: ['https://github.com/org/repo/pull/42', 'JIRA-123'],
        client: 'Cursor',
      },
      claude,
    );
    assert.equal(saved.status, 'applied');
    const id = saved.asset!;
    assert.ok(core.memories.isMemory(id));
    const asset = core.assets.get(id, { transferables: false });
    assert.equal(asset.name, 'Search API Redis caching');
    assert.equal(core.assets.text(id), '# Caching\n\nTTL is one hour; invalidated on product updates.');
    assert.equal(asset.original.reference?.classification.specific, 'md');
    assert.deepEqual(asset.websites?.iterable?.map((site) => site.url), ['https://github.com/org/repo/pull/42'], 'only the http link is a website');
    const facts = core.memories.facts.get(id)!;
    assert.equal(facts.project, repo);
    assert.deepEqual(facts.links, ['https://github.com/org/repo/pull/42', 'JIRA-123']);
    assert.equal(facts.client, 'Cursor');
    assert.deepEqual(facts.files.map((f) => [f.path, f.kind, f.commit]), [
      [join(repo, 'src', 'cache.ts'), 'file', head],
      [join(repo, 'src'), 'folder', head],
      [join(repo, 'src', 'missing.ts'), 'missing', undefined],
    ]);
    assert.equal(facts.files[0]!.hash, createHash('sha256').update('export const ttl = 3600;\n').digest('hex'), "a file's stamp is the sha256 of its bytes");
    // It is the agent's change like any save, and in the memories listing, not elsewhere.
    assert.deepEqual(core.agentChanges.list().changes.map((c) => [c.kind, c.asset]), [['created', id]]);
    const snippet = await core.assets.writes.create({ type: 'SEEDED_ASSET', asset: { format: { fragment: { string: { raw: 'const a = 1;' } } } } }, { author: user });
    assert.deepEqual(core.memories.newest(10), [id]);
    assert.equal(core.memories.isMemory(snippet.id), false);

    const fresh = await core.memories.recall([id, snippet.id]);
    assert.deepEqual([...fresh.keys()], [id]);
    assert.equal(fresh.get(id)!.staleness.stale, false);
    assert.equal(fresh.get(id)!.staleness.note, undefined);
  });
});

test('recall: a cited file changed (committed or not) or gone makes the memory "may be stale", naming the files and the commit since', async () => {
  const repo = gitRepo();
  const first = git(repo, 'rev-parse', 'HEAD').trim();
  await withCore(async (core) => {
    const saved = await core.memories.save({ title: 'cache notes', summary: 'ttl notes', project: repo, files: ['src/cache.ts', 'src/other.ts'] }, claude);
    const id = saved.asset!;
    // Uncommitted change: stale by the hash.
    writeFileSync(join(repo, 'src', 'cache.ts'), 'export const ttl = 60;\n');
    let recalled = (await core.memories.recall([id])).get(id)!.staleness;
    assert.equal(recalled.stale, true);
    assert.deepEqual(recalled.files.map((f) => f.state), ['changed', 'unchanged']);
    assert.match(recalled.note!, /may be stale: .*cache\.ts changed/);
    // Committed: still stale, and the commit it changed in is named.
    git(repo, 'commit', '-qam', 'shorter ttl');
    const second = git(repo, 'rev-parse', 'HEAD').trim();
    recalled = (await core.memories.recall([id])).get(id)!.staleness;
    assert.equal(recalled.files[0]!.commit, first);
    assert.equal(recalled.files[0]!.commitNow, second);
    // Gone.
    rmSync(join(repo, 'src', 'other.ts'));
    recalled = (await core.memories.recall([id])).get(id)!.staleness;
    assert.deepEqual(recalled.files.map((f) => f.state), ['changed', 'gone']);
    assert.match(recalled.note!, /other\.ts is gone/);
    // Put back as it was: fresh again.
    writeFileSync(join(repo, 'src', 'cache.ts'), 'export const ttl = 3600;\n');
    writeFileSync(join(repo, 'src', 'other.ts'), 'export const other = 1;\n');
    recalled = (await core.memories.recall([id])).get(id)!.staleness;
    assert.equal(recalled.stale, false);
  });
});

test('plain files outside git: stamped by hash alone; a folder is stale when its entries change; no git at all is no error', async () => {
  const dir = tempDir('satchel-memory-plain-');
  writeFileSync(join(dir, 'notes.txt'), 'one');
  mkdirSync(join(dir, 'docs'));
  const stamps = new FileStamps({ git: join(dir, 'no-such-git') });
  const files = await stamps.stamp(['notes.txt', 'docs'], dir);
  assert.deepEqual(files.map((f) => [f.kind, f.commit]), [['file', undefined], ['folder', undefined]]);
  assert.equal((await stamps.check(files)).stale, false);
  writeFileSync(join(dir, 'docs', 'new.md'), 'x');
  let checked = await stamps.check(files);
  assert.deepEqual(checked.files.map((f) => f.state), ['unchanged', 'changed']);
  // Same size, other bytes: the hash (not the size) decides.
  writeFileSync(join(dir, 'notes.txt'), 'two');
  checked = await stamps.check(files);
  assert.deepEqual(checked.files.map((f) => f.state), ['changed', 'changed']);
});

test('while agent writes wait for review, a memory is a proposal; accepted, it is a memory with its facts', async () => {
  const dir = tempDir('satchel-memory-review-');
  writeFileSync(join(dir, 'a.ts'), 'a');
  await withCore(
    async (core) => {
      const saved = await core.memories.save({ title: 'proposed memory', summary: 'text', files: [join(dir, 'a.ts')] }, claude);
      assert.equal(saved.status, 'proposed');
      assert.deepEqual(core.memories.newest(10), []);
      const accepted = await core.agentChanges.accept(saved.change!, user);
      assert.ok(accepted.asset);
      assert.deepEqual(core.memories.newest(10), [accepted.asset]);
      assert.equal(core.memories.facts.get(accepted.asset)!.files[0]!.kind, 'file');
    },
    { agents: { reviewChanges: true } },
  );
});

test('a memory is refused with a clear error: no title, no text, too many files, a relative path and a project resolve', async () => {
  await withCore(async (core) => {
    await assert.rejects(core.memories.save({ title: ' ', summary: 'x' }, claude), InvalidInputError);
    await assert.rejects(core.memories.save({ title: 't', summary: '  ' }, claude), InvalidInputError);
    const many = Array.from({ length: MAX_MEMORY_FILES + 1 }, (_, i) => `/tmp/f${i}`);
    await assert.rejects(core.memories.save({ title: 't', summary: 'x', files: many }, claude), TooLargeError);
    await assert.rejects(core.memories.save({ title: 't', summary: 'x' }, user), InvalidInputError, 'only agents write through agentWrites');
  });
});

test('a deleted memory leaves the listing; restored from the trash it is a memory again', async () => {
  await withCore(async (core) => {
    const saved = await core.memories.save({ title: 'm', summary: 'text' }, claude);
    const id = saved.asset!;
    core.assets.writes.delete(id, { author: user });
    assert.deepEqual(core.memories.newest(10), []);
    core.trash.restore(id, { author: user });
    assert.deepEqual(core.memories.newest(10), [id]);
    // Deleted for good, its facts go with it.
    core.assets.writes.delete(id, { author: user });
    core.trash.deleteForever(id);
    assert.equal(core.memories.facts.get(id), undefined);
  });
});

test('completion offers snippets, never memories (notes are not code to insert)', async () => {
  await withCore(async (core) => {
    const snippet = await core.assets.writes.create(
      { type: 'SEEDED_ASSET', asset: { format: { fragment: { string: { raw: '# retry notes' }, metadata: { ext: 'md' } } }, metadata: { name: 'retry helper' } } },
      { author: user },
    );
    await core.memories.save({ title: 'retry decision', summary: '# why we retry' }, claude);
    const offered = core.snippets.completions({ query: 'retry', language: 'markdown' }).candidates.map((candidate) => candidate.id);
    assert.deepEqual(offered, [snippet.id]);
    const newest = core.snippets.completions({ query: '', language: 'markdown' }).candidates.map((candidate) => candidate.id);
    assert.deepEqual(newest, [snippet.id]);
  });
});
