/**
 * Suggest latency (copy → decision, as `npm run bench` times it) on a copy of a filled library, the
 * host started as a window starts it (allocator settings, V8 flags) plus any Node flags given after them: how a V8 setting
 * tried for the host's memory (issue 34) changes what a user waits for, without loading a corpus
 * through the API first. The library must have been filled from `generateCorpus(--size, 42)`, as
 * bench:day fills out/bench-day/library-<size>; the copies are drawn from that corpus.
 *
 *   npm run build && ./node_modules/.bin/node --experimental-strip-types --disable-warning=ExperimentalWarning \
 *     test/bench/hostSuggest.ts --library=out/bench-day/library-100000 [--size=100000] [--per-kind=20] [--runs=3]
 *     [--node-arg=--max-semi-space-size=2 …] [--host=OTHER/dist/cli.cjs] [--node=NODE]
 *
 * The library is copied (`cp -r`) into a scratch directory first (a host may write to its store).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { BenchClient } from './client.ts';
import { generateCorpus } from './corpus.ts';
import { measureSuggest } from './figures/suggest.ts';
import { repoRoot, startChild } from './processes.ts';
import { connect } from './satchelApi.ts';
import { DATA_HOST_ALLOCATOR_ENV } from '../../src/hosting/hostCommand.ts';
import { DATA_HOST_NODE_FLAGS } from '../../src/core/hostNodeFlags.ts';

const { values } = parseArgs({
  options: {
    library: { type: 'string' },
    size: { type: 'string', default: '100000' },
    'per-kind': { type: 'string', default: '20' },
    runs: { type: 'string', default: '3' },
    'node-arg': { type: 'string', multiple: true, default: [] },
    /** Another build's cli.cjs (a "before" figure); its folder must resolve the project's node_modules. */
    host: { type: 'string' },
    /** Another Node for the host (bench:day's host runs on VS Code's Node 24). */
    node: { type: 'string' },
  },
});
if (values.library === undefined) throw new Error('usage: hostSuggest.ts --library=<filled data dir> [--node-arg=…]');

const scratch = mkdtempSync(join(tmpdir(), 'host-suggest-'));
const dataDir = join(scratch, 'data');
try {
  execFileSync('cp', ['-r', resolve(values.library), dataDir]);
  for (const stale of ['port.json', 'satchel.lock']) rmSync(join(dataDir, stale), { force: true });
  const corpus = generateCorpus(Number(values.size), 42);
  const nodeArgs = [...DATA_HOST_NODE_FLAGS, ...values['node-arg']];
  const script = resolve(values.host ?? join(repoRoot, 'dist/cli.cjs'));
  const host = await startChild(script, ['--data-dir', dataDir, '--port', '0'], { timeoutMs: 300_000, env: DATA_HOST_ALLOCATOR_ENV, nodeArgs, ...(values.node !== undefined ? { execPath: values.node } : {}) });
  const client = new BenchClient(host.url, 4);
  try {
    const application = await connect(client);
    if (application === undefined) throw new Error('POST /connect failed');
    const load = loadavg()[0]!.toFixed(1);
    // The reuse tally needs the store's ids for the corpus keys; only the latency and decisions are read here.
    const figure = await measureSuggest(client, application.id, corpus, new Map(), { perKind: Number(values['per-kind']), runs: Number(values.runs), budgetMs: 600_000 });
    console.log(`suggest, ${script} on ${values.node ?? process.execPath}, host's Node flags ${nodeArgs.join(' ')}: p50 ${figure.p50.toFixed(1)} ms, p95 ${figure.p95.toFixed(1)} ms over ${figure.count}; decisions ${JSON.stringify(figure.decisions)}; load ${load} → ${loadavg()[0]!.toFixed(1)}`);
  } finally {
    await client.close();
    await host.stop();
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
