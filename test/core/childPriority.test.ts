/**
 * The data host's background children start below its CPU priority (a higher nice value on Unix,
 * BELOW_NORMAL on Windows): git run by sync's runner or by a memory's file stamps, the import
 * process and a model runtime; the
 * host itself keeps its own. Lowering that fails is reported once and never stops the child.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getPriority } from 'node:os';
import { join } from 'node:path';
import { BACKGROUND_PRIORITY, lowerPriority } from '../../src/core/childPriority.ts';
import { Git } from '../../src/core/sync/git.ts';
import { ModelProcess } from '../../src/core/models/modelProcess.ts';
import type { EncoderRequest } from '../../src/core/models/encoderProtocol.ts';
import type { ImportSource } from '../../src/core/import/importSource.ts';
import { tempDir, withCore } from '../support/helpers.ts';
import { FileStamps } from '../../src/core/memories/fileStamps.ts';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';

/** Lower priority is a larger number in os.getPriority's terms (nice values, Windows' classes mapped to them). */
function assertBelowHost(pid: number | undefined, what: string): void {
  assert.ok(pid !== undefined, `${what} has a pid`);
  const host = getPriority();
  const child = getPriority(pid);
  assert.ok(child > host, `${what} runs at ${child}, the host at ${host}`);
  assert.equal(child, Math.max(host, BACKGROUND_PRIORITY));
}

test('git started by sync\'s runner runs below the host\'s priority', async () => {
  const dir = tempDir();
  const git = new Git(join(dir, 'repo.git'));
  await git.run(['init', '--bare', '--quiet']);
  const child = git.spawn(['cat-file', '--batch']);
  try {
    assertBelowHost(child.pid, 'git cat-file');
  } finally {
    const closed = new Promise((resolve) => child.once('close', resolve));
    child.stdin!.end();
    await closed;
  }
});

test('git started by a memory\'s file stamps runs below the host\'s priority (Linux: /proc)', async () => {
  // A stand-in for git that answers with its own nice value (from /proc, once lowered) as a 40-digit commit.
  const dir = tempDir();
  mkdirSync(join(dir, '.git'));
  writeFileSync(join(dir, 'cited.ts'), 'export const cited = 1;\n');
  const git = join(dir, 'fake-git');
  writeFileSync(git, "#!/bin/sh\nsleep 0.3\nprintf '%040d\\n' \"$(cut -d' ' -f19 /proc/$$/stat)\"\n");
  chmodSync(git, 0o755);
  const [stamp] = await new FileStamps({ git }).stamp([join(dir, 'cited.ts')], undefined);
  assert.ok(stamp?.kind === 'file' && stamp.commit !== undefined, `stamped with its commit: ${JSON.stringify(stamp)}`);
  assert.equal(Number(stamp.commit), Math.max(getPriority(), BACKGROUND_PRIORITY), `git ran at ${Number(stamp.commit)}, the host at ${getPriority()}`);
});

test('the import process runs below the host\'s priority', async () => {
  await withCore(async (core) => {
    const entries = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`Nice ${i}`, { scope: 'typescript', prefix: ['nice'], body: `export const nice${i} = ${i};` }]));
    const text = JSON.stringify(entries);
    const source: ImportSource = { name: 'nice.code-snippets', text: () => text };
    const seen: Array<{ pid: number | undefined; priority: number | undefined }> = [];
    const summary = await core.imports.import([source], {
      batchSize: 100,
      onProgress: () => {
        const pid = core.imports.pid;
        if (seen.length === 0) seen.push({ pid, priority: pid === undefined ? undefined : getPriority(pid) });
      },
    });
    assert.equal(summary.imported, 300);
    const [first] = seen;
    assert.ok(first?.pid !== undefined && first.pid !== process.pid, 'the import ran in a child process');
    assert.ok(first.priority !== undefined && first.priority > getPriority(), `the import process ran at ${first.priority}, the host at ${getPriority()}`);
  });
});

class Runtime extends ModelProcess<EncoderRequest> {
  constructor() {
    super('encoderHost');
  }

  /** Waits for the child to start, then ends it: an embed before any load fails and stops the child. */
  startedThenStopped(): Promise<unknown> {
    return this.load({ op: 'embed', texts: [] }, { timeoutMs: 20_000, what: 'nothing' }).catch((error: unknown) => error);
  }
}

test('a model runtime (the encoder\'s process) runs below the host\'s priority; the host keeps its own', async () => {
  const before = getPriority();
  const runtime = new Runtime();
  try {
    assertBelowHost(runtime.pid, 'the encoder process');
    assert.equal(getPriority(), before, 'the host\'s own priority is unchanged');
  } finally {
    await runtime.startedThenStopped();
  }
  assert.equal(runtime.running, false);
});

test('a child that cannot be lowered is reported once and nothing throws', () => {
  const reports: string[] = [];
  // Not a process id os.setPriority takes: it throws, as a platform that refuses would.
  lowerPriority({ pid: 1.5 }, (message) => reports.push(message));
  lowerPriority({ pid: 2.5 }, (message) => reports.push(message));
  assert.equal(reports.length, 1, reports.join('\n'));
  assert.match(reports[0] ?? '', /Could not lower the priority of a background process/);
  // A spawn that failed has no pid: nothing to lower, nothing to report.
  lowerPriority({ pid: undefined }, (message) => reports.push(message));
  assert.equal(reports.length, 1);
});
