/**
 * What VS Code loads (`main`: dist/extension.cjs): the extension's bundle (dist/extensionMain.cjs)
 * compiled with V8's code cache. Compiling the 1 MB bundle is most of what loading Satchel costs the
 * extension host (about 300 ms on a busy 2-core machine, 8–70 ms from the cache); the cache is
 * written once per bundle and Node, a few seconds after activation, to a private folder of the
 * user's cache directory. A rejected or unreadable cache only means compiling as without one.
 * Nothing else of the extension host changes (Node's own compile cache would cache every other
 * extension's modules too).
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { createRequire, wrap } from 'node:module';
import { Script, constants } from 'node:vm';
import { performance } from 'node:perf_hooks';
import { readThreadClock, since, type ThreadClock } from './extension/threadClock.ts';

interface Main {
  activate(context: unknown): unknown;
  deactivate(): Promise<void>;
  bundleLoaded(load: BundleLoad): void;
}

/** How the bundle was loaded, for the log and the activation figures (docs/performance.md). */
export interface BundleLoad {
  readonly compileMs: number;
  readonly runMs: number;
  readonly codeCache: 'used' | 'written' | 'rejected';
  /** Reading, compiling and running the bundle on the thread's clocks (threadClock.ts): the loading half of activation's own share. */
  readonly loading: ThreadClock;
}

/** After activation, so the functions the first seconds ran are in the cache too. */
const WRITE_CACHE_AFTER_MS = 5_000;

const file = join(__dirname, 'extensionMain.cjs');

function cacheDir(): string {
  if (process.platform === 'win32') return join(process.env.LOCALAPPDATA ?? join(homedir(), 'AppData', 'Local'), 'Satchel', 'code-cache');
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Caches', 'Satchel', 'code-cache');
  return join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'satchel', 'code-cache');
}

function load(): Main {
  const loadStarted = readThreadClock();
  const source = readFileSync(file, 'utf8');
  const stat = statSync(file);
  // One cache per bundle and V8: a stale one would be rejected anyway, this only skips reading it.
  const cacheFile = join(cacheDir(), `extension-${Math.round(stat.mtimeMs)}-${stat.size}-${process.versions.v8}-${process.arch}.bin`);
  let cached: Buffer | undefined;
  try {
    cached = readFileSync(cacheFile);
  } catch {
    // None yet.
  }
  const started = performance.now();
  const script = new Script(wrap(source), {
    filename: file,
    ...(cached ? { cachedData: cached } : {}),
    importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const compiled = performance.now();
  const module = { exports: {} as Main };
  const run = script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: unknown, filename: string, dirname: string) => void;
  run.call(module.exports, module.exports, createRequire(file), module, file, __dirname);
  const codeCache = cached === undefined ? 'written' : script.cachedDataRejected ? 'rejected' : 'used';
  module.exports.bundleLoaded({ compileMs: compiled - started, runMs: performance.now() - compiled, codeCache, loading: since(loadStarted) });
  if (codeCache !== 'used') {
    setTimeout(() => writeCache(cacheFile, script), WRITE_CACHE_AFTER_MS).unref();
  }
  return module.exports;
}

function writeCache(cacheFile: string, script: Script): void {
  const partial = `${cacheFile}.${process.pid}.tmp`;
  try {
    const dir = cacheDir();
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(partial, script.createCachedData(), { mode: 0o600 });
    renameSync(partial, cacheFile);
    // Older bundles' caches go: the installed version's is the one read.
    for (const name of readdirSync(dir)) if (name.startsWith('extension-') && join(dir, name) !== cacheFile && !name.endsWith('.tmp')) rmSync(join(dir, name), { force: true });
  } catch {
    // A read-only or full home: the next start compiles again.
    rmSync(partial, { force: true });
  }
}

/**
 * A diagnosis, not a figure (docs/performance.md, activation): with SATCHEL_ACTIVATION_PROFILE=DIR in
 * the editor's environment, V8's CPU profile of loading the bundle and of `activate()`, written to
 * DIR/activation-<pid>.cpuprofile. The profiler is never loaded otherwise.
 */
const profileDir = process.env.SATCHEL_ACTIVATION_PROFILE;
const profiler = profileDir ? startProfile() : undefined;

function startProfile(): import('node:inspector').Session {
  const { Session } = require('node:inspector') as typeof import('node:inspector');
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: 100 });
  session.post('Profiler.start');
  return session;
}

function stopProfile(session: import('node:inspector').Session, dir: string): void {
  session.post('Profiler.stop', (error, result) => {
    if (!error) {
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, `activation-${process.pid}.cpuprofile`), JSON.stringify(result.profile));
    }
    session.disconnect();
  });
}

const main = load();

export function activate(context: unknown): unknown {
  try {
    return main.activate(context);
  } finally {
    if (profiler && profileDir) stopProfile(profiler, profileDir);
  }
}

export function deactivate(): Promise<void> {
  return main.deactivate();
}
