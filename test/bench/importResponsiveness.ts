/**
 * How the host answers while an import runs: the benchmark corpus is imported through
 * POST /satchel/import (as `satchel import <folder>` sends it) into a fresh host (dist/cli.cjs),
 * while one probe asks /.well-known/health every 20 ms and, with --creates, another saves a snippet
 * every 100 ms. Prints the import's rate, the probes' latencies and the host's resident memory
 * after the import and after --wait seconds.
 *   npm run build && node --experimental-strip-types test/bench/importResponsiveness.ts --size 100000 --creates --wait 20
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { generateCorpus } from './corpus.ts';
import { memoryOf, removeDir, repoRoot, startChild, tempDataDir } from './processes.ts';
import { quantile } from './stats.ts';
import { snippetFiles } from './figures/importFigure.ts';
import { SatchelClient } from '../../src/client/satchelClient.ts';

const { values } = parseArgs({ options: { size: { type: 'string', default: '10000' }, creates: { type: 'boolean', default: false }, wait: { type: 'string', default: '0' } } });
const files = snippetFiles(generateCorpus(Number(values.size)));
const dataDir = tempDataDir();
const host = await startChild(join(repoRoot, 'dist', 'cli.cjs'), ['--data-dir', dataDir, '--port', '0']);
const mb = (bytes: number): string => `${Math.round(bytes / 2 ** 20)} MB`;
const summary = (label: string, ms: readonly number[]): string => {
  const at = (q: number): string => quantile(ms, q).toFixed(0);
  return `${label}: n ${ms.length}, p50 ${at(0.5)} ms, p95 ${at(0.95)} ms, p99 ${at(0.99)} ms, max ${at(1)} ms`;
};

let importing = true;
/** Asks `ask` every `every` ms while the import runs; the latencies, and how many answers were not 2xx. */
const probe = async (every: number, ask: (n: number) => Promise<Response>): Promise<{ latencies: number[]; failed: number }> => {
  const latencies: number[] = [];
  let failed = 0;
  for (let n = 0; importing; n++) {
    const started = performance.now();
    const reply = await ask(n);
    if (!reply.ok) failed++;
    await reply.arrayBuffer();
    latencies.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, every));
  }
  return { latencies, failed };
};
const application = { id: 'bench', name: 'VS_CODE', version: '1', platform: 'LINUX', onboarded: true, privacy: 'OPEN' };
const health = probe(20, () => fetch(`${host.url}/.well-known/health`));
const creates = values.creates
  ? probe(100, (n) => fetch(`${host.url}/assets/create?transferables=false`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'SEEDED_ASSET', asset: { application, format: { fragment: { string: { raw: `const during${n} = ${n};` } }, classification: { generic: 'CODE', specific: 'ts' } } } }),
    }))
  : undefined;

try {
  console.log(`host idle: ${mb(memoryOf(host.pid).rss)}`);
  const started = performance.now();
  const client = new SatchelClient(host.url);
  const result = await client.imports.importFiles(files).finally(() => client.dispose());
  const ms = performance.now() - started;
  importing = false;
  console.log(`imported ${result.imported} in ${(ms / 1000).toFixed(1)} s, ${Math.round(result.imported / (ms / 1000))}/s`);
  const healthResult = await health;
  console.log(summary('health during the import', healthResult.latencies), `(${healthResult.failed} failed)`);
  if (creates) {
    const createResult = await creates;
    console.log(summary('creates during the import', createResult.latencies), `(${createResult.failed} failed)`);
  }
  const after = memoryOf(host.pid);
  console.log(`host after the import: ${mb(after.rss)} (peak ${mb(after.peak)})`);
  if (Number(values.wait) > 0) {
    await new Promise((resolve) => setTimeout(resolve, Number(values.wait) * 1000));
    console.log(`host ${values.wait} s later: ${mb(memoryOf(host.pid).rss)}`);
  }
} finally {
  importing = false;
  await host.stop();
  removeDir(dataDir);
}
