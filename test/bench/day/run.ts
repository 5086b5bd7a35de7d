/**
 * `npm run bench:day`: a scripted day with a large library, measured in the real VS Code harness
 * (code-server + headless Chromium, test/integration/host). Packages the linux-x64 .vsix (or takes
 * --vsix), fills a data directory with the library through `satchel import`, then runs the day
 * (driver.ts, loaded into the extension host by the smoke-test driver) twice, each in a fresh
 * code-server with a fresh user-data directory: with Satchel installed, then without it. Before the day
 * a first start with Satchel installs it and writes its code cache (its activation figure reported apart),
 * so the day's window starts as a user's day does, with Satchel run before. Prints a
 * table and writes the figures to out/bench-day/day-<size>.json. A measurement, not a test: it is
 * not part of `npm test`.
 *
 *   npm run bench:day -- [--size=100000] [--import-size=10000] [--backfill-seconds=45] [--vsix=FILE] [--timeout=2400] [--keep-library]
 *                        [--profile=DIR] [--only-with] [--only-start [--starts=N] [--profile-start=DIR]]
 *
 * --profile writes a CPU profile of each phase of both runs into DIR/with and DIR/without (a diagnosis:
 * summarise with test/bench/day/longTasks.ts); --only-with skips the run without Satchel (no table).
 * --only-start runs only the start with Satchel, then reads VS Code's activation figure: a minute with a
 * small library (`--only-start --size=1000 --import-size=1`), for the activation alone; --starts=N
 * starts the window N times, each with a fresh profile but the cache folder of the one before (the
 * first writes Satchel's code cache, the others read it, as a user's later starts do). --profile-start
 * writes a CPU profile of each start's extension host from its first line (DIR/start-N.cpuprofile, and
 * DIR/control-N.cpuprofile for the window without Satchel; hostProfile.ts) and prints where VS Code's
 * activation figure went (activationProfile.ts).
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { format } from 'node:util';
import { bundleForExtensionHost, ensureHost, freePort, linuxVsix, launchChromium, repoRoot, startCodeServer, type HostTools } from '../../integration/host/codeServer.ts';
import { generateCorpus } from '../corpus.ts';
import { snippetFiles } from '../figures/importFigure.ts';
import { readPortFile } from '../../../src/hosting/portFile.ts';
import { EXTENSION_ID, type DayConfig, type DayResult } from './dayTypes.ts';
import { printDay, type RunOutcome } from './report.ts';
import { activationSpan, describeActivation, describeOwnShare } from './activationSplit.ts';
import { describeBusy, MachineSampler } from './machineSampler.ts';
import { ExtensionHostProfile } from './hostProfile.ts';
import { describeParts, profileParts, type CpuProfile, type ProfiledStart } from './activationProfile.ts';
import { untilQuiet } from './quiet.ts';

const args = new Map(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=') as [string, string]));
const size = Number(args.get('size') ?? 100_000);
const importSize = Number(args.get('import-size') ?? 10_000);
const backfillSeconds = Number(args.get('backfill-seconds') ?? 45);
const timeoutSec = Number(args.get('timeout') ?? 2400);
const started = Date.now();
const say = (text: string) => console.log(`[bench:day] ${((Date.now() - started) / 1000).toFixed(0)} s: ${text}`);
const load = () => loadavg().map((l) => l.toFixed(1)).join(' ');

/** Writes the corpus as VS Code snippet files (5,000 a file) into a new folder. */
async function writeSnippetFolder(folder: string, count: number, seed: number): Promise<void> {
  mkdirSync(folder, { recursive: true });
  for (const file of snippetFiles(generateCorpus(count, seed))) {
    const read = await file.read();
    if (!('content' in read)) throw new Error(`${read.name}: the corpus file was not text`);
    writeFileSync(join(folder, read.name), read.content);
  }
}

/**
 * The library, through the bulk import path (`satchel import`, the CLI of the same build, Node 22).
 * With --keep-library the filled store is kept in out/bench-day/library-<size> and copied from there
 * on the next run (the day changes its copy); delete that folder after a change to the store's format.
 */
async function fillLibrary(dataDir: string, scratch: string): Promise<void> {
  const kept = join(repoRoot, 'out/bench-day', `library-${size}`);
  if (args.has('keep-library') && existsSync(join(kept, 'satchel.db'))) {
    cpSync(kept, dataDir, { recursive: true });
    say(`library of ${size} copied from ${kept}`);
    return;
  }
  const folder = join(scratch, 'library');
  await writeSnippetFolder(folder, size, 42);
  const t0 = Date.now();
  execFileSync(process.execPath, [join(repoRoot, 'dist/cli.cjs'), 'import', '--data-dir', dataDir, folder], { stdio: ['ignore', 'ignore', 'inherit'], timeout: 900_000 });
  rmSync(folder, { recursive: true, force: true });
  if (args.has('keep-library')) {
    rmSync(kept, { recursive: true, force: true });
    cpSync(dataDir, kept, { recursive: true, filter: (source) => !/\.lock|port\.json|\.log$/.test(source) });
  }
  say(`library of ${size} imported in ${((Date.now() - t0) / 1000).toFixed(1)} s (load ${load()})`);
}

function bundleDriver(): Promise<string> {
  return bundleForExtensionHost('test/bench/day/driver.ts', 'out/bench-day/driver.cjs');
}

/** The data host outlives the window (its own process group); it goes with the run. */
function stopDataHost(dataDir: string): void {
  const file = readPortFile(dataDir);
  try {
    if (file?.pid) process.kill(file.pid, 'SIGTERM');
  } catch {
    // Already gone.
  }
}

/** VS Code's own activation figure for Satchel, from the Running Extensions editor's rows. */
const RUNTIME_ROWS = `[...document.querySelectorAll('.runtime-extensions-editor .monaco-list-row')].map((row) => ({ name: row.querySelector('.name')?.textContent ?? '', time: row.querySelector('.activation-time')?.textContent ?? '' }))`;

/** The development extension, an empty extension (the control, runDay), as the Running Extensions editor names it: by its id. */
const CONTROL_NAME = 'satchel-bench.day-driver';

/** Where a start after the first finds the extensions and caches of the one before it. */
interface Kept {
  readonly extensionsDir: string;
  readonly cacheHome: string;
}

async function runDay(tools: HostTools, config: Omit<DayConfig, 'workspace'>, vsix: string | undefined, scratch: string, kept?: Kept, profileTo?: string): Promise<RunOutcome> {
  const quiet = await untilQuiet();
  say(`${config.withSatchel ? 'with' : 'without'} Satchel: the machine ${quiet.reached ? 'quiet' : 'still busy'} after ${quiet.waitedS} s (last second ${quiet.busy === undefined ? '?' : `${Math.round(quiet.busy * 100)}%`} busy)`);
  // Sampled from the window's start to its end, read around the activation once the marks are in.
  const machine = new MachineSampler();
  try {
    const outcome = await runWindow(tools, config, vsix, scratch, kept, profileTo);
    const id = config.withSatchel ? EXTENSION_ID : CONTROL_NAME;
    const span = activationSpan(outcome.result.loadMarks ?? [], id, config.withSatchel ? outcome.result.activation?.activateMs : 0);
    return { ...outcome, busyAtActivation: span ? describeBusy(machine.busyDuring(span.fromMs, span.toMs), availableParallelism()) : 'the activation\'s marks not read' };
  } finally {
    machine.stop();
  }
}

async function runWindow(tools: HostTools, config: Omit<DayConfig, 'workspace'>, vsix: string | undefined, scratch: string, kept?: Kept, profileTo?: string): Promise<RunOutcome> {
  const configFile = join(scratch, `day-${config.withSatchel ? 'with' : 'without'}.json`);
  const workbench = await startCodeServer(tools, {
    ...(vsix ? { vsix } : {}),
    ...kept,
    settings: {
      'satchel.dataDirectory': config.dataDir,
      'satchel.remote.warnOnRemoteHost': false,
      'satchel.models.idleUnloadMinutes': 0,
      'satchel.host.idleMinutes': 0.5,
      'remote.autoForwardPorts': false,
    },
    env: { SATCHEL_DAY_CONFIG: configFile },
  });
  const workspace = join(workbench.tmp, 'workspace');
  mkdirSync(workspace, { recursive: true });
  // VS Code runs a test module only in an extension development window: an empty extension makes it one, in both runs.
  // It activates on Satchel's event and does nothing: VS Code's figure for it is the floor any such
  // extension gets in that window (the code of the extensions required before it, the machine's waits).
  const devPath = join(workbench.tmp, 'day-driver-extension');
  mkdirSync(devPath, { recursive: true });
  writeFileSync(join(devPath, 'package.json'), JSON.stringify({ name: 'day-driver', publisher: 'satchel-bench', version: '0.0.1', engines: { vscode: '^1.104.0' }, main: './main.js', activationEvents: ['onStartupFinished'] }));
  writeFileSync(join(devPath, 'main.js'), 'exports.activate = () => {};\n');
  writeFileSync(join(workspace, 'day.py'), 'import time\n\n');
  writeFileSync(configFile, JSON.stringify({ ...config, workspace } satisfies DayConfig));
  const loadBefore = load();
  // --profile-start: the extension host waits for the runner's profiler before its first line (hostProfile.ts).
  const inspectBrkPort = profileTo ? await freePort() : undefined;
  const profiling = inspectBrkPort ? ExtensionHostProfile.attach(inspectBrkPort) : undefined;
  profiling?.catch(() => {});
  const browser = await launchChromium(tools);
  let result: DayResult | undefined;
  let vscodeActivation: string | undefined;
  let controlActivation: string | undefined;
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 850 } });
    const exit = new Promise<number>((resolveExit, reject) => {
      const killer = setTimeout(() => reject(new Error(`TIMEOUT: no result after ${timeoutSec}s`)), timeoutSec * 1000);
      browser.on('disconnected', () => reject(new Error('browser disconnected')));
      void page.exposeFunction('codeAutomationExit', (code: number) => (clearTimeout(killer), resolveExit(code)));
      void page.exposeFunction('codeAutomationLog', async (_type: string, logArgs: unknown[]) => {
        const text = format(...logArgs);
        const day = /\[\[day-result:(.+)\]\]/.exec(text);
        if (day) result = JSON.parse(day[1]!) as DayResult;
        else if (text.includes('[day]')) say(`${config.withSatchel ? 'with' : 'without'} Satchel ${text.replace('[day] ', '')}`);
        else if (process.env.SATCHEL_DAY_VERBOSE || (/error|fail/i.test(text) && !/open-vsx|ENOTFOUND/.test(text))) console.log(text);
        if (text.includes('[[day-runtime-extensions]]')) {
          // The list draws only the rows in view, slowest first: a window tall enough for every extension's row
          // (the day is over). The editor draws its rows once the workbench has gathered every extension's status: a busy window takes seconds.
          await page.setViewportSize({ width: 1400, height: 2400 });
          const wanted = config.withSatchel ? ['Satchel', CONTROL_NAME] : [CONTROL_NAME];
          let rows: { name: string; time: string }[] = [];
          for (let tries = 0; tries < 30 && !wanted.every((name) => rows.some((row) => row.name === name)); tries++) {
            await new Promise((r) => setTimeout(r, 500));
            rows = await page.evaluate<{ name: string; time: string }[]>(RUNTIME_ROWS).catch(() => []);
          }
          const figure = (name: string) => rows.find((row) => row.name === name)?.time ?? (rows.length ? `not listed among ${rows.map((r) => r.name).join(', ')}` : 'the Running Extensions editor showed no rows');
          if (config.withSatchel) vscodeActivation = figure('Satchel');
          controlActivation = figure(CONTROL_NAME);
        }
      });
    });
    await page.goto(workbench.url({ folder: workspace, devPath, testsPath: join(repoRoot, 'out/bench-day/driver.cjs'), ...(inspectBrkPort ? { inspectBrkPort } : {}) }));
    const code = await exit;
    if (code !== 0 || !result) throw new Error(`the day ${config.withSatchel ? 'with' : 'without'} Satchel failed (exit ${code}):\n${workbench.log().slice(-6000)}`);
    if (profiling && profileTo) await writeStartProfile(await profiling, profileTo, result, config.withSatchel ? { id: EXTENSION_ID, figure: vscodeActivation, activateMs: result.activation?.activateMs } : { id: CONTROL_NAME, figure: controlActivation, activateMs: 0 });
    return { result, loadBefore, loadAfter: load(), vscodeActivation, controlActivation };
  } finally {
    await browser.close().catch(() => {});
    if (config.withSatchel) stopDataHost(config.dataDir);
    await workbench.stop();
  }
}

/** The start's profile and what reads it (activationProfile.ts), and the table of where its figure's time went. */
async function writeStartProfile(profile: ExtensionHostProfile, base: string, result: DayResult, extension: { id: string; figure: string | undefined; activateMs: number | undefined }): Promise<void> {
  await profile.stop(`${base}.cpuprofile`);
  if (!result.clock) throw new Error('the driver did not read the extension host\'s clocks');
  const start: ProfiledStart = { extensionId: extension.id, loadMarks: result.loadMarks ?? [], clock: result.clock, vscodeActivation: extension.figure, activateMs: extension.activateMs };
  writeFileSync(`${base}.json`, JSON.stringify(start));
  const parts = profileParts(JSON.parse(readFileSync(`${base}.cpuprofile`, 'utf8')) as CpuProfile, start);
  say(`profiled start (${base}.cpuprofile), where VS Code's figure for ${extension.id} (${extension.figure ?? 'not read'}) went, in ms:\n${describeParts(parts).join('\n')}`);
}

/** VS Code's activation figure and its parts (activationSplit.ts). */
function activationLine(outcome: RunOutcome): string {
  const activation = outcome.result.activation;
  const split = describeActivation(outcome.result.loadMarks, outcome.vscodeActivation, activation?.activateMs, EXTENSION_ID);
  return `${outcome.vscodeActivation ?? 'VS Code\'s figure not read'} (code cache ${String(activation?.codeCache ?? '?')}): ${split}; ${describeOwnShare(activation?.own)}; ${outcome.busyAtActivation ?? ''}`;
}

async function main(): Promise<void> {
  const tools = ensureHost();
  const vsix = linuxVsix(args.get('vsix') ?? process.env.SATCHEL_VSIX);
  const scratch = mkdtempSync(join(tmpdir(), 'satchel-day-'));
  try {
    const dataDir = join(scratch, 'data');
    say(`filling a library of ${size} (load ${load()})`);
    await fillLibrary(dataDir, scratch);
    const importFolder = join(scratch, 'import');
    await writeSnippetFolder(importFolder, importSize, 7);
    execFileSync('git', ['init', '--bare', '--quiet', '--initial-branch=main', join(scratch, 'remote.git')]);
    await bundleDriver();
    const profile = args.get('profile');
    const startOnly = args.has('only-start');
    const profileStart = args.get('profile-start') ? resolve(args.get('profile-start')!) : undefined;
    if (profileStart && !startOnly) throw new Error('--profile-start profiles the starts of --only-start');
    if (profileStart) mkdirSync(profileStart, { recursive: true });
    const starts = Number(args.get('starts') ?? 1);
    const base = { size, dataDir, importFolder, backfillSeconds, remote: join(scratch, 'remote.git'), ...(profile ? { profileDir: resolve(profile) } : {}), ...(startOnly ? { startOnly } : {}) };
    // Each start after the first finds Satchel installed and the code cache the one before it wrote, as a user's next start does.
    const kept = { extensionsDir: join(scratch, 'extensions'), cacheHome: join(scratch, 'cache') };
    if (startOnly) {
      for (let start = 1; start <= starts; start++) {
        say(`start ${start} of ${starts} with Satchel`);
        const outcome = await runDay(tools, { ...base, withSatchel: true }, start === 1 ? vsix : undefined, scratch, kept, profileStart ? join(profileStart, `start-${start}`) : undefined);
        say(`start ${start}: ${activationLine(outcome)}; the extension's own split: ${JSON.stringify(outcome.result.activation ?? {})}`);
        // Right after, the same window without Satchel: VS Code's figure for an extension that does nothing.
        const control = await runDay(tools, { ...base, withSatchel: false }, undefined, scratch, undefined, profileStart ? join(profileStart, `control-${start}`) : undefined);
        say(`start ${start}, control without Satchel: the empty extension's ${control.controlActivation ?? 'figure not read'} (${control.busyAtActivation ?? ''}); beside Satchel it had ${outcome.controlActivation ?? 'no figure'}`);
      }
      return;
    }
    // A user's day starts with Satchel installed and run before: the day's window finds the code cache a first
    // start wrote. That first start (on an empty data directory of its own, so the library's state is the
    // day's) is measured too: it is what a user sees once per installed version.
    say('the first start after install (writes the code cache)');
    const firstStart = await runDay(tools, { ...base, dataDir: join(scratch, 'first-start-data'), withSatchel: true, startOnly: true }, vsix, scratch, kept);
    say(`first start: ${activationLine(firstStart)}`);
    say('the day with Satchel');
    const withSatchel = await runDay(tools, { ...base, withSatchel: true }, undefined, scratch, kept);
    if (args.has('only-with')) {
      say(`only the day with Satchel (--only-with): ${JSON.stringify({ phases: withSatchel.result.phases, activation: withSatchel.result.activation, vscodeActivation: activationLine(withSatchel) }, null, 1)}`);
      return;
    }
    const durations = Object.fromEntries(Object.entries(withSatchel.result.phases).map(([name, phase]) => [name, phase.ms]));
    say('the same day without Satchel');
    const without = await runDay(tools, { ...base, withSatchel: false, durations }, undefined, scratch);
    const minutes = ((Date.now() - started) / 60_000).toFixed(1);
    mkdirSync(join(repoRoot, 'out/bench-day'), { recursive: true });
    const file = join(repoRoot, `out/bench-day/day-${size}.json`);
    writeFileSync(file, JSON.stringify({ size, importSize, backfillSeconds, minutes, firstStart, withSatchel, without }, null, 1));
    printDay(withSatchel, without, { size, minutes, firstStart });
    say(`figures written to ${file}`);
  } finally {
    rmSync(scratch, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
