/**
 * Child processes under test: the Satchel host as users run it (the esbuild bundle, `dist/cli.cjs`)
 * and the bare Koa baseline, each on port 0 with its own data directory, so start time and resident
 * memory are those of one process.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Under node_modules so bundles resolve the project's externals (node-llama-cpp) and stay out of git. */
const buildDir = join(repoRoot, 'node_modules', '.cache', 'satchel-bench');

export interface Built {
  readonly host: string;
  readonly bareKoa: string;
}

/** Builds the product exactly as `npm start` does, plus the bare Koa baseline bundled the same way. */
export async function buildAll(): Promise<Built> {
  execFileSync(process.execPath, ['esbuild.mjs'], { cwd: repoRoot, stdio: 'inherit' });
  mkdirSync(buildDir, { recursive: true });
  const bareKoa = join(buildDir, 'bareKoa.cjs');
  await esbuild.build({
    entryPoints: [join(repoRoot, 'test', 'bench', 'bareKoa.ts')],
    outfile: bareKoa,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node22',
    logLevel: 'warning',
  });
  return { host: join(repoRoot, 'dist', 'cli.cjs'), bareKoa };
}

export function tempDataDir(prefix = 'satchel-bench-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export interface Child {
  readonly process: ChildProcess;
  readonly url: string;
  readonly pid: number;
  /** Milliseconds from spawn to the "serving … on URL" line. */
  readonly listeningMs: number;
  /** Everything the child wrote, for error reports. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts `script` with Node and resolves once it prints its URL. `startedAt` is taken just before
 * spawn so the caller can time the first request from process start.
 */
export function startChild(script: string, args: readonly string[], options: { timeoutMs?: number; env?: NodeJS.ProcessEnv; nodeArgs?: readonly string[]; execPath?: string } = {}): Promise<Child> {
  const started = performance.now();
  const child = spawn(options.execPath ?? process.execPath, [...nodeFlags(script), ...(options.nodeArgs ?? []), script, ...args], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...options.env },
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`${script} printed no URL within ${options.timeoutMs ?? 120_000} ms`)), options.timeoutMs ?? 120_000);
    const fail = (error: Error): void => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`${error.message}\n--- output ---\n${output.slice(-4000)}`));
    };
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      const match = /(?:serving .* on|listening on) (http:\/\/[^\s]+)/.exec(output);
      if (!match) return;
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      const listeningMs = performance.now() - started;
      child.stdout!.on('data', (more: Buffer) => void (output = (output + more.toString()).slice(-20_000)));
      resolve({
        process: child,
        url: match[1]!,
        pid: child.pid!,
        listeningMs,
        output: () => output,
        stop: () => stopChild(child),
      });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => void (output = (output + chunk.toString()).slice(-20_000)));
    child.once('exit', (code, signal) => fail(new Error(`${script} exited (${code ?? signal}) before listening`)));
    child.once('error', (error) => fail(error));
  });
}

/** Bundles run as they ship; helper scripts run from source. */
export function nodeFlags(script: string): string[] {
  return script.endsWith('.ts') ? ['--experimental-strip-types', '--disable-warning=ExperimentalWarning'] : ['--disable-warning=ExperimentalWarning'];
}

export function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

export interface Memory {
  /** Resident set size now, in bytes. */
  readonly rss: number;
  /** Peak resident set size, in bytes (Linux only; otherwise equal to rss). */
  readonly peak: number;
}

export function memoryOf(pid: number): Memory {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
    return { rss: kb('VmRSS'), peak: kb('VmHWM') };
  } catch {
    const rss = Number(execFileSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' }).trim()) * 1024;
    return { rss, peak: rss };
  }
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/**
 * CPU time a process has used so far, in ms (user + system; Linux's /proc, 10 ms ticks; NaN
 * elsewhere): unlike a latency, unaffected by other processes competing for the cores.
 */
export function cpuMsOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces), from the closing parenthesis on.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return Number.NaN;
  }
}

const mib = (bytes: number): string => String(Math.round(bytes / 2 ** 20)).padStart(5);

/** One line of this process's memory at a step of a one-process measurement: RSS and the V8 heap's parts, in MB. */
export function ownMemoryLine(label: string, width: number): string {
  const m = process.memoryUsage();
  return `${label.padEnd(width)} rss ${mib(memoryOf(process.pid).rss)} MB  heapUsed ${mib(m.heapUsed)}  heapTotal ${mib(m.heapTotal)}  external ${mib(m.external)}  arrayBuffers ${mib(m.arrayBuffers)}`;
}
