/**
 * A sync killed (SIGKILL) at each of its steps, then run again: the two machines converge with
 * nothing lost and nothing duplicated (a conflict copy made by the killed run is not made twice).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from '../../support/helpers.ts';
import { TEST_WRITE } from '../../support/authors.ts';
import { bareRepository, library, openMachine } from './syncSupport.ts';
import { allConversations, conversationsOf, recordsOf, seed } from './vaultSupport.ts';

const script = fileURLToPath(new URL('./crashSync.ts', import.meta.url));

function syncKilledAt(dataDir: string, phase: string): Promise<NodeJS.Signals | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--experimental-strip-types', '--disable-warning=ExperimentalWarning', script, dataDir, phase], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code, signal) => (signal === null && code !== 0 ? reject(new Error(`sync failed: ${stderr}`)) : resolve(signal)));
  });
}

for (const phase of ['fetched', 'committed', 'pushing', 'pushed', 'applying']) {
  test(`killed at "${phase}", then run again: both machines converge, nothing lost or duplicated`, { timeout: 180_000 }, async () => {
    const root = tempDir('satchel-sync-crash-');
    const remote = bareRepository(root);
    const dirs = { a: join(root, 'a'), b: join(root, 'b') };
    let a = openMachine(dirs.a, remote);
    const b = openMachine(dirs.b, remote);
    try {
      const shared = await a.assets.writes.create(seed('const retries = 3;\n', { name: 'Shared' }), TEST_WRITE);
      const lines = await a.assets.writes.create(seed('one\ntwo\nthree\nfour\n', { name: 'Lines' }), TEST_WRITE);
      const talk = a.conversations.create({ type: 'COPILOT', name: 'Talk', messages: [{ role: 'USER', fragment: { string: { raw: 'hello' } } }] } as never, false).id;
      await a.sync.sync();
      await b.sync.sync();
      // Work on both sides: new snippets, edits of different lines, the same line (a conflict), a delete.
      const fromA = await a.assets.writes.create(seed('made on A\n', { name: 'From A' }), TEST_WRITE);
      a.assets.writes.edit(lines.id, { content: { text: 'one (A)\ntwo\nthree\nfour\n' } }, TEST_WRITE);
      a.assets.writes.edit(shared.id, { content: { text: 'const retries = 5;\n' } }, TEST_WRITE);
      const fromB = await b.assets.writes.create(seed('made on B\n', { name: 'From B' }), TEST_WRITE);
      b.assets.writes.edit(lines.id, { content: { text: 'one\ntwo\nthree\nfour (B)\n' } }, TEST_WRITE);
      b.assets.writes.edit(shared.id, { content: { text: 'const retries = 10;\n' } }, TEST_WRITE);
      // Messages added to one conversation on both sides, and a conversation made on B.
      a.conversations.createMessage(talk, { role: 'USER', fragment: { string: { raw: 'from A' } } }, false);
      b.conversations.createMessage(talk, { role: 'USER', fragment: { string: { raw: 'from B' } } }, false);
      const made = b.conversations.create({ type: 'COPILOT', name: 'Made on B', messages: [] } as never, false).id;
      for (let i = 0; i < 300; i++) await b.assets.writes.create(seed(`bulk ${i}\n`, { name: `Bulk ${i}` }), TEST_WRITE);
      await b.sync.sync();
      await a.close();
      const signal = await syncKilledAt(dirs.a, phase);
      assert.equal(signal, 'SIGKILL', `the sync reached "${phase}"`);
      a = openMachine(dirs.a);
      const rerun = await a.sync.sync();
      // Killed after its push, the sync is finished from what it pushed: nothing merged or sent again.
      const pushed = phase === 'pushed' || phase === 'applying';
      assert.deepEqual(rerun.notices.map((n) => n.notice), pushed ? [] : ['conflict']);
      if (pushed) assert.equal(rerun.sent, 0);
      await b.sync.sync();
      await a.sync.sync();
      const onA = library(a);
      assert.deepEqual(onA, library(b));
      const records = recordsOf(a);
      assert.equal(records.read(lines.id)?.content, 'one (A)\ntwo\nthree\nfour (B)\n');
      assert.equal(records.read(shared.id)?.content, 'const retries = 10;\n');
      assert.ok(records.read(fromA.id) && records.read(fromB.id));
      const copies = [...onA.values()].filter((record) => record.conflictOf === shared.id);
      assert.equal(copies.length, 1, 'one conflict copy');
      assert.equal(copies[0]!.content, 'const retries = 5;\n');
      assert.equal(onA.size, 2 + 2 + 300 + 1);
      assert.deepEqual(allConversations(a), allConversations(b));
      assert.deepEqual(conversationsOf(a).read(talk)?.messages.map((m) => m.text).sort(), ['from A', 'from B', 'hello']);
      assert.equal(conversationsOf(a).read(made)?.name, 'Made on B');
      assert.equal(a.sync.status().changed, 0);
    } finally {
      await a.close();
      await b.close();
      rmSync(root, { recursive: true, force: true });
    }
  });
}
