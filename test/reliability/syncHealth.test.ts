/**
 * A sync of a large library through the host (POST /satchel/sync): health answers all along (the
 * first sync reads the library a page at a time and applies a batch per transaction, with turns of
 * the event loop between), and SIGTERM while a joining host applies the library ends it within the
 * shutdown deadline; restarted, it finishes the sync and holds the whole library.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../support/helpers.ts';
import { SatchelClient } from '../../src/client/satchelClient.ts';
import { HostProcess, figures } from './support.ts';
import { probeHealth, waitedOf } from './healthProbe.ts';

const SNIPPETS = 5_000;
const root = tempDir('satchel-rel-sync-');
const remote = join(root, 'remote.git');
const hosts: HostProcess[] = [];

after(async () => {
  for (const host of hosts) await host.kill();
  rmSync(root, { recursive: true, force: true });
});

async function startHost(name: string): Promise<{ host: HostProcess; client: SatchelClient }> {
  const host = new HostProcess(join(root, name));
  hosts.push(host);
  const port = (await host.waitFor('serving', 60_000)).port!;
  return { host, client: new SatchelClient(`http://127.0.0.1:${port}`) };
}

function snippetFile(count: number): { name: string; read: () => Promise<{ name: string; content: string }> } {
  const entries = Array.from({ length: count }, (_, i) => [`Snippet ${i}`, { scope: 'typescript', prefix: [`s${i}`, `group${i % 40}`], body: `export function f${i}(x: number): number {\n  return x * ${i};\n}\n` }]);
  const content = JSON.stringify(Object.fromEntries(entries));
  return { name: 'library.code-snippets', read: async () => ({ name: 'library.code-snippets', content }) };
}

test(`health answers while ${SNIPPETS} snippets sync; SIGTERM during a joining sync ends the host, which finishes the sync after a restart`, { timeout: 600_000 }, async () => {
  execFileSync('git', ['init', '--bare', '--quiet', '--initial-branch=main', remote]);
  const a = await startHost('a');
  const imported = await a.client.imports.importFiles([snippetFile(SNIPPETS)]);
  assert.equal(imported.imported, SNIPPETS);

  const probe = probeHealth(Number(new URL(a.client.baseUrl).port), a.host);
  const started = performance.now();
  const first = await a.client.sync.run({ remote });
  const syncMs = Math.round(performance.now() - started);
  const health = await probe.stop();
  assert.equal(first.sent, SNIPPETS);
  assert.equal(health.failures, 0, 'health failed during the sync');
  assert.ok(waitedOf(health) < 3_000, `health was blocked ${waitedOf(health)} ms (round trip ${health.slowest} ms)`);
  // The stream to fast-import yields every 10 ms of work: 500 records at a time held the loop 351 ms here.
  assert.ok((health.held ?? 0) < 250, `the host's event loop was held ${health.held} ms during the first sync`);

  const b = await startHost('b');
  let terminated = 0;
  const stopped = new AbortController();
  const joining = b.client.sync
    .run({ remote }, {
      signal: stopped.signal,
      onProgress: (progress) => {
        if (progress.phase === 'applying' && terminated === 0) {
          terminated = performance.now();
          b.host.child.kill('SIGTERM');
        }
      },
    })
    .catch(() => undefined);
  const exit = await b.host.exited;
  const exitMs = Math.round(performance.now() - terminated);
  stopped.abort();
  await joining;
  assert.ok(terminated > 0, 'the joining sync reached its apply');
  assert.ok(exitMs < 3_000, `the host took ${exitMs} ms to end after SIGTERM`);
  assert.equal(exit.signal, null);

  const again = await startHost('b');
  const finished = await again.client.sync.run();
  const status = await again.client.sync.status();
  assert.equal(status.changed, 0);
  const count = Number(execFileSync('git', ['--git-dir', remote, 'ls-tree', '-r', '--name-only', 'main'], { encoding: 'utf8' }).split('\n').filter((path) => path.endsWith('snippet.md')).length);
  assert.equal(count, SNIPPETS);
  assert.equal((await again.client.assets.list({ transferables: false })).iterable.length, SNIPPETS);
  figures('sync-health', {
    snippets: SNIPPETS,
    first_sync_ms: syncMs,
    health_median_ms: health.median,
    health_slowest_ms: health.slowest, loop_held_ms: health.held ?? -1,
    sigterm_exit_ms: exitMs,
    resumed_received: finished.received,
  });
  for (const client of [a.client, b.client, again.client]) client.dispose();
});
