/**
 * What Satchel costs the process it runs in, the extension host: a stand-in extension host
 * (extensionHost/child.cjs: the bundle loaded and activated with `vscode` stubbed) runs a scripted
 * workload through the extension's own client, once without Satchel and once per bundle given, each
 * on a fresh data directory, one after another in one run. Prints each run's JSON and a table.
 *   npm run build -- --production && node --experimental-strip-types test/bench/extensionHost.ts [--size 10000] dist/extension.cjs [OTHER/dist/extension.cjs]
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { generateCorpus } from './corpus.ts';
import { removeDir, repoRoot, tempDataDir } from './processes.ts';
import { snippetFiles } from './figures/importFigure.ts';

const { values, positionals } = parseArgs({ options: { size: { type: 'string', default: '10000' } }, allowPositionals: true });
const files = await Promise.all(snippetFiles(generateCorpus(Number(values.size))).map((file) => file.read()));
const scratch = tempDataDir();
// One file per snippet and a list of their names: the stand-in reads each when the import asks for it,
// as Import Snippets… reads the user's files, so the corpus is not charged to the extension host whole.
const snippets = join(scratch, 'snippets');
mkdirSync(snippets);
files.forEach((file, i) => writeFileSync(join(snippets, `${i}.json`), JSON.stringify(file)));
writeFileSync(join(snippets, 'names.json'), JSON.stringify(files.map((file) => file.name)));

interface Phase {
  readonly ms: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
}
interface Run {
  readonly bundle: string;
  readonly activation: Record<string, number | string>;
  readonly phases: Record<string, Phase>;
  readonly whole: Omit<Phase, 'ms'>;
  readonly extensionHostRssAddedMb: number;
  readonly extensionHostRssAddedAfterGcMb?: number;
  readonly extensionHostRssAddedAtStartMb?: number;
  readonly extensionHostHeapAtStartMb?: number;
  readonly extensionHostHeapAfterGcMb?: number;
  readonly extensionHostCpuSeconds: number;
  readonly dataHost: null | string | { pid: number; rssMb: number; cpuSeconds: number };
}

const runs: Run[] = [];
for (const bundle of ['-', ...positionals]) {
  const dataDir = tempDataDir();
  const child = spawnSync(process.execPath, ['--expose-gc', join(repoRoot, 'test', 'bench', 'extensionHost', 'child.cjs'), bundle, dataDir, snippets], { encoding: 'utf8', timeout: 600_000 });
  removeDir(dataDir);
  const line = child.stdout.trim().split('\n').at(-1) ?? '';
  if (child.status !== 0 || !line.startsWith('{')) throw new Error(`${bundle}: exit ${child.status}\n${child.stderr}`);
  console.log(line);
  runs.push(JSON.parse(line) as Run);
}
removeDir(scratch);

const name = (run: Run): string => (run.bundle === '-' ? 'without Satchel' : run.bundle);
console.log(`\n| phase | ${runs.map(name).join(' | ')} |\n|---|${runs.map(() => '---|').join('')}`);
for (const phase of Object.keys(runs[0]!.phases)) {
  console.log(`| ${phase}: loop delay p50 / p99 / max (ms) | ${runs.map((run) => { const p = run.phases[phase]!; return `${p.p50} / ${p.p99} / ${p.max} (${p.ms} ms)`; }).join(' | ')} |`);
}
console.log(`| whole day: p50 / p99 / max (ms) | ${runs.map((run) => `${run.whole.p50} / ${run.whole.p99} / ${run.whole.max}`).join(' | ')} |`);
console.log(`| activation (require + activate) | ${runs.map((run) => (run.bundle === '-' ? '' : `${run.activation.requireMs} + ${run.activation.activateMs} ms`)).join(' | ')} |`);
console.log(`| extension host RSS added | ${runs.map((run) => `${run.extensionHostRssAddedMb} MB`).join(' | ')} |`);
console.log(`| extension host RSS added once connected (after a full GC) | ${runs.map((run) => `${run.extensionHostRssAddedAtStartMb ?? '?'} MB`).join(' | ')} |`);
console.log(`| extension host RSS added, after a full GC | ${runs.map((run) => `${run.extensionHostRssAddedAfterGcMb ?? '?'} MB`).join(' | ')} |`);
console.log(`| JS heap used once connected / at the end, after a full GC | ${runs.map((run) => `${run.extensionHostHeapAtStartMb ?? '?'} / ${run.extensionHostHeapAfterGcMb ?? '?'} MB`).join(' | ')} |`);
console.log(`| extension host CPU after start | ${runs.map((run) => `${run.extensionHostCpuSeconds} s`).join(' | ')} |`);
console.log(`| data host RSS / CPU after start | ${runs.map((run) => (typeof run.dataHost === 'object' && run.dataHost ? `${run.dataHost.rssMb} MB / ${run.dataHost.cpuSeconds} s` : String(run.dataHost ?? ''))).join(' | ')} |`);
