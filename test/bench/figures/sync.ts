/**
 * Sync through git (docs/sync.md), measured between two hosts as a user runs them: host A holds the
 * corpus (imported as VS Code snippet files: every asset has tags, snippet syntax and prefixes) and
 * makes the first sync of it into an empty bare repository; host B, empty, joins (fetches and
 * applies the whole library); then one snippet is edited on A and A syncs it, and B receives it,
 * `runs` times each. Every sync goes through POST /satchel/sync and waits for its summary.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { Built } from '../processes.ts';
import { memoryOf, removeDir, startChild, tempDataDir } from '../processes.ts';
import type { Corpus } from '../corpus.ts';
import { snippetFiles } from './importFigure.ts';
import { SatchelClient } from '../../../src/client/satchelClient.ts';
import { latency, type Latency } from '../stats.ts';

export interface SyncFigure {
  readonly size: number;
  /** A's first sync: the whole library written as a vault and pushed. */
  readonly initialMs: number;
  /** B's first sync: the whole library fetched and applied to an empty store. */
  readonly joinMs: number;
  /** One edited snippet synced from A, and received by B. */
  readonly oneChange: Latency;
  readonly receiveOne: Latency;
  /** Host A's resident memory after its first sync, and the bare repository's size. */
  readonly rssBytes: number;
  readonly repositoryBytes: number;
}

export async function measureSync(built: Built, corpus: Corpus, hostArgs: (dataDir: string) => string[], plan: { readonly runs: number }): Promise<SyncFigure> {
  const root = tempDataDir('satchel-bench-sync-');
  const remote = join(root, 'remote.git');
  execFileSync('git', ['init', '--bare', '--quiet', remote]);
  const a = await startChild(built.host, hostArgs(join(root, 'a')));
  const b = await startChild(built.host, hostArgs(join(root, 'b')));
  const onA = new SatchelClient(a.url);
  const onB = new SatchelClient(b.url);
  try {
    const imported = await onA.imports.importFiles(snippetFiles(corpus));
    if (imported.imported !== corpus.assets.length) throw new Error(`the import wrote ${imported.imported} of ${corpus.assets.length}`);
    let started = performance.now();
    const initial = await onA.sync.run({ remote });
    const initialMs = performance.now() - started;
    if (initial.sent !== corpus.assets.length) throw new Error(`the first sync sent ${initial.sent}`);
    const rssBytes = memoryOf(a.pid).rss;
    started = performance.now();
    const joined = await onB.sync.run({ remote });
    const joinMs = performance.now() - started;
    if (joined.received !== corpus.assets.length) throw new Error(`the joining sync received ${joined.received}`);
    const edited = await onA.assets.create({ type: 'SEEDED_ASSET', asset: { format: { fragment: { string: { raw: 'let edits = 0;\n' } }, classification: { specific: 'ts' } } } } as never);
    await onA.sync.run();
    await onB.sync.run();
    const sends: number[] = [];
    const receives: number[] = [];
    for (let run = 0; run < Math.max(plan.runs, 5); run++) {
      await onA.history.edit(edited.id, { content: `let edits = ${run + 1};\n` });
      started = performance.now();
      const sent = await onA.sync.run();
      sends.push(performance.now() - started);
      if (sent.sent !== 1) throw new Error(`a one-change sync sent ${sent.sent}`);
      started = performance.now();
      const received = await onB.sync.run();
      receives.push(performance.now() - started);
      if (received.received !== 1) throw new Error(`a one-change sync received ${received.received}`);
    }
    const repositoryBytes = Number(execFileSync('du', ['-sb', remote], { encoding: 'utf8' }).split('\t')[0]);
    return { size: corpus.assets.length, initialMs, joinMs, oneChange: latency(sends), receiveOne: latency(receives), rssBytes, repositoryBytes };
  } finally {
    onA.dispose();
    onB.dispose();
    await a.stop();
    await b.stop();
    removeDir(root);
  }
}
