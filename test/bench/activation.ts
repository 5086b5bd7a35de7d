/**
 * Activation in a stand-in extension host: each run is a fresh Node process
 * (extensionHost/activationChild.cjs) that requires dist/extension.cjs with `vscode` stubbed and
 * activates it, as VS Code does. The first run of each bundle writes V8's code cache (to a scratch
 * cache folder; it stays up the few seconds the loader waits before writing), the others use it, as every start after the first does. Prints each run's JSON and
 * the medians of the cached runs; bundles given side by side are run alternately, in one run.
 * --cold: every run is a first start (a fresh cache folder, nothing written), the case of the figure VS Code
 * reports in the integration suite and bench:day, which start with a fresh profile; the medians are of all runs.
 * --preload: Node's own modules the bundle requires are loaded before it, as the editor's extension host has
 * them loaded before any extension (otherwise most of the bundle's `run` is Node loading http, tls, crypto…).
 * The data host a run starts (in the turn after activation) is stopped before the next run begins (on Linux,
 * found by its data directory in /proc), so it does not take a core from the next run.
 *   npm run build -- --production && node --experimental-strip-types test/bench/activation.ts [--runs 10] [--cold] [--preload] dist/extension.cjs [OTHER/dist/extension.cjs]
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { removeDir, repoRoot, tempDataDir } from './processes.ts';

const { values, positionals } = parseArgs({ options: { runs: { type: 'string', default: '10' }, cold: { type: 'boolean', default: false }, preload: { type: 'boolean', default: false } }, allowPositionals: true });
const cold = values.cold;
const bundles = positionals.length > 0 ? positionals : ['dist/extension.cjs'];
const runs = Number(values.runs);

type Key = 'compileMs' | 'runMs' | 'requireMs' | 'activateMs' | 'cpuMs' | 'firstTurnMs' | 'ownWallMs' | 'ownCpuMs';
type Figures = Record<Key, number> & { codeCache: string; alsoLoaded: string[] };

const caches = bundles.map(() => tempDataDir('satchel-code-cache-'));
const results: Figures[][] = bundles.map(() => []);
const loads: number[] = [];
for (let run = 0; run <= runs; run++) {
  for (const [index, bundle] of bundles.entries()) {
    const dataDir = tempDataDir();
    const cache = cold ? tempDataDir('satchel-code-cache-') : caches[index]!;
    loads.push(loadavg()[0]!);
    const child = spawnSync(process.execPath, [join(repoRoot, 'test', 'bench', 'extensionHost', 'activationChild.cjs'), bundle, dataDir, run === 0 && !cold ? '6000' : '0'], {
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, XDG_CACHE_HOME: cache, SATCHEL_BENCH_PRELOAD: values.preload ? '1' : '0' },
    });
    stopHostsOf(dataDir);
    removeDir(dataDir);
    if (cold) removeDir(cache);
    const line = child.stdout.trim().split('\n').at(-1) ?? '';
    if (child.status !== 0 || !line.startsWith('{')) throw new Error(`${bundle}: exit ${child.status}\n${child.stderr}`);
    console.log(`${bundle} ${line}`);
    results[index]!.push(JSON.parse(line) as Figures);
  }
}
for (const cache of caches) removeDir(cache);

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};
console.log(
  `\nload average ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}; ` +
    (cold ? `medians of ${runs + 1} first starts (no code cache; the first run's figures in brackets)` : `medians of ${runs} runs with the code cache used (first run, cache written, in brackets)`),
);
console.log('| bundle | compile | run | require | activate() | require + activate() | its CPU time | Satchel\'s share: wall | on a core | turn after | other files loaded |\n|---|---|---|---|---|---|---|---|---|---|---|');
for (const [index, bundle] of bundles.entries()) {
  const [first, ...cached] = results[index]!;
  const used = cold ? results[index]! : cached.filter((figures) => figures.codeCache === 'used');
  const m = (key: Key): string => `${median(used.map((figures) => figures[key]))} (${first![key]})`;
  const whole = `${median(used.map((figures) => figures.requireMs + figures.activateMs)).toFixed(1)} (${(first!.requireMs + first!.activateMs).toFixed(1)})`;
  console.log(`| ${bundle} | ${m('compileMs')} | ${m('runMs')} | ${m('requireMs')} | ${m('activateMs')} | ${whole} | ${m('cpuMs')} | ${m('ownWallMs')} | ${m('ownCpuMs')} | ${m('firstTurnMs')} | ${first!.alsoLoaded.join(', ') || 'none'} |`);
  if (!cold && used.length < cached.length) console.log(`  (${cached.length - used.length} runs did not use the cache)`);
}

/** Stops the data hosts started for `dataDir` and waits until they are gone (Linux; elsewhere nothing is read). */
function stopHostsOf(dataDir: string): void {
  if (process.platform !== 'linux') return;
  const hosts = (): number[] =>
    readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .filter((pid) => {
        try {
          return readFileSync(`/proc/${pid}/cmdline`, 'latin1').split('\0').includes(dataDir);
        } catch {
          return false; // gone meanwhile
        }
      })
      .map(Number);
  for (const pid of hosts()) {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // Already gone.
    }
  }
  const deadline = Date.now() + 10_000;
  while (hosts().length > 0 && Date.now() < deadline) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
}
