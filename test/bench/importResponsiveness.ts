/**
 * How the host answers while an import runs: the benchmark corpus is imported through
 * POST /satchel/import (as `satchel import <folder>` sends it) into a fresh host (dist/cli.cjs),
 * while one probe asks /.well-known/health every 20 ms and, with --creates, another saves a snippet
 * every 100 ms. Prints the import's rate, the probes' latencies and the host's resident memory
 * after the import and after --wait seconds.
 *   npm run build && node --experimental-strip-types test/bench/importResponsiveness.ts --size 100000 --creates --wait 20
 */
import { spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import { generateCorpus } from './corpus.ts';
import { memoryOf, removeDir, repoRoot, tempDataDir } from './processes.ts';
import { ImportsClient, type ImportFile } from '../../src/client/imports.ts';

const { values } = parseArgs({ options: { size: { type: 'string', default: '10000' }, creates: { type: 'boolean', default: false }, wait: { type: 'string', default: '0' } } });
const corpus = generateCorpus(Number(values.size));
const files: ImportFile[] = [];
for (let start = 0; start < corpus.assets.length; start += 5000) {
  const name = `bench-${files.length + 1}.code-snippets`;
  const entries = corpus.assets.slice(start, start + 5000).map((a) => [`${a.name} · ${a.key}`, { scope: a.language, prefix: [...a.tags], body: a.code }]);
  const content = JSON.stringify(Object.fromEntries(entries));
  files.push({ name, read: async () => ({ name, content }) });
}

const dataDir = tempDataDir();
const host = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', 'dist/cli.cjs', '--data-dir', dataDir, '--port', '0'], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'inherit'] });
const url = await new Promise<string>((resolve) => {
  let out = '';
  host.stdout!.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    const found = /http:\/\/127\.0\.0\.1:\d+/.exec(out);
    if (found) resolve(found[0]);
  });
});
const mb = (bytes: number): string => `${Math.round(bytes / 2 ** 20)} MB`;
const summary = (label: string, ms: number[]): string => {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (q: number): string => (sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? NaN).toFixed(0);
  return `${label}: n ${sorted.length}, p50 ${at(0.5)} ms, p95 ${at(0.95)} ms, p99 ${at(0.99)} ms, max ${at(1)} ms`;
};

let importing = true;
const probe = async (every: number, ask: (n: number) => Promise<Response>, failures: { count: number }): Promise<number[]> => {
  const latencies: number[] = [];
  for (let n = 0; importing; n++) {
    const started = performance.now();
    const reply = await ask(n);
    if (!reply.ok) failures.count++;
    await reply.arrayBuffer();
    latencies.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, every));
  }
  return latencies;
};
const healthFailures = { count: 0 };
const createFailures = { count: 0 };
const application = { id: 'bench', name: 'VS_CODE', version: '1', platform: 'LINUX', onboarded: true, privacy: 'OPEN' };
const health = probe(20, () => fetch(`${url}/.well-known/health`), healthFailures);
const creates = values.creates
  ? probe(100, (n) => fetch(`${url}/assets/create?transferables=false`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'SEEDED_ASSET', asset: { application, format: { fragment: { string: { raw: `const during${n} = ${n};` } }, classification: { generic: 'CODE', specific: 'ts' } } } }),
    }), createFailures)
  : Promise.resolve([]);

console.log(`host idle: ${mb(memoryOf(host.pid!).rss)}`);
const started = performance.now();
const result = await new ImportsClient(url).importFiles(files);
const ms = performance.now() - started;
importing = false;
console.log(`imported ${result.imported} in ${(ms / 1000).toFixed(1)} s, ${Math.round(result.imported / (ms / 1000))}/s`);
console.log(summary('health during the import', await health), healthFailures.count ? `(${healthFailures.count} failed)` : '');
if (values.creates) console.log(summary('creates during the import', await creates), `(${createFailures.count} failed)`);
const after = memoryOf(host.pid!);
console.log(`host after the import: ${mb(after.rss)} (peak ${mb(after.peak)})`);
if (Number(values.wait) > 0) {
  await new Promise((resolve) => setTimeout(resolve, Number(values.wait) * 1000));
  console.log(`host ${values.wait} s later: ${mb(memoryOf(host.pid!).rss)}`);
}
host.kill('SIGTERM');
await new Promise((resolve) => host.once('exit', resolve));
removeDir(dataDir);
