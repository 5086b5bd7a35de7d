/**
 * How a window starts the headless host (`dist/cli.cjs`, what `npm start` runs) as its own process:
 * the window's settings as the CLI's flags, detached from the window (its own process group, no
 * pipes to it) so it outlives the window that started it, its output appended to a log file in the
 * data directory.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readSync, renameSync, statSync, fstatSync } from 'node:fs';
import { join } from 'node:path';
import { ensurePrivateDir, PRIVATE_FILE_MODE } from '../core/store/privateFiles.ts';
import { DATABASE_FILE } from '../core/store/database.ts';
import { DATA_HOST_NODE_FLAGS, NO_NODE_FLAGS_ENV } from '../core/hostNodeFlags.ts';

export const HOST_LOG_FILE = 'host.log';

/** The flags the headless host takes (`satchel`, src/cli.ts), as node:util's parseArgs reads them; hostArgs writes them. */
export const HOST_FLAGS = {
  'data-dir': { type: 'string' },
  port: { type: 'string' },
  'keep-backups': { type: 'string' },
  'allow-host': { type: 'string', multiple: true },
  'review-agent-writes': { type: 'boolean' },
  'trash-retention-days': { type: 'string' },
  'connector-min-length': { type: 'string' },
  'connector-reuse-threshold': { type: 'string' },
  'model-idle-unload-minutes': { type: 'string' },
  'model-catalog-url': { type: 'string' },
  'idle-minutes': { type: 'string' },
  'soft-memory-limit': { type: 'string' },
  wait: { type: 'boolean' },
  managed: { type: 'boolean' },
} as const;
/** A log past this size at a start is kept once as host.log.1 and begun anew. */
const LOG_ROTATE_BYTES = 2 * 1024 * 1024;

/** Which Node runs the host and with what: inside VS Code the Node it ships (its executable with ELECTRON_RUN_AS_NODE=1). */
export interface DataHostCommand {
  readonly execPath: string;
  /** Node's own options before the script (tests preload a probe). */
  readonly execArgv?: readonly string[];
  /** The headless entry: the extension's `dist/cli.cjs`. */
  readonly script: string;
  /** Added to this process's environment. */
  readonly env?: Readonly<Record<string, string>>;
}

/** What the window's settings make of the host it starts. */
export interface DataHostSettings {
  readonly dataDir: string;
  readonly port?: number;
  readonly keepBackups?: number;
  readonly allowedHosts?: readonly string[];
  /** undefined: the store's last choice stands. */
  readonly reviewAgentWrites?: boolean;
  readonly trashRetentionDays?: number;
  readonly connectorMinLength?: number;
  readonly connectorReuseThreshold?: number;
  readonly modelIdleUnloadMs?: number;
  readonly catalogBaseUrl?: string;
  /** The host leaves after this many minutes with no window or tool connected. */
  readonly idleMinutes: number;
}

/** The CLI's arguments for `settings` (src/cli.ts and cli/hostTuning.ts read them back). */
export function hostArgs(settings: DataHostSettings): string[] {
  const args = ['--data-dir', settings.dataDir, '--no-wait', '--managed', '--idle-minutes', String(settings.idleMinutes)];
  const add = (flag: string, value: number | string | undefined): void => {
    if (value !== undefined) args.push(flag, String(value));
  };
  add('--port', settings.port);
  add('--keep-backups', settings.keepBackups);
  add('--trash-retention-days', settings.trashRetentionDays);
  add('--connector-min-length', settings.connectorMinLength);
  add('--connector-reuse-threshold', settings.connectorReuseThreshold);
  add('--model-idle-unload-minutes', settings.modelIdleUnloadMs !== undefined ? settings.modelIdleUnloadMs / 60_000 : undefined);
  add('--model-catalog-url', settings.catalogBaseUrl);
  for (const host of settings.allowedHosts ?? []) args.push('--allow-host', host);
  if (settings.reviewAgentWrites !== undefined) args.push(settings.reviewAgentWrites ? '--review-agent-writes' : '--no-review-agent-writes');
  return args;
}

/**
 * glibc's allocator as the data host wants it, set where the host is started (the allocator reads
 * them before any code runs; the user's own settings win). By default glibc gives each thread that
 * allocates an arena of its own (the host has its pool, its workers and V8's), and raises the sizes
 * it maps directly and trims at to the largest block the process has freed, so after the warm-up's
 * large buffers were let go, freed memory stayed in the heaps. Setting the trim threshold also fixes
 * the mapping threshold at its default (128 KiB). Profiled at 100k snippets, the idle host held
 * 124 MB with both, 151–154 MB with neither (docs/performance.md).
 */
export const DATA_HOST_ALLOCATOR_ENV: Readonly<Record<string, string>> = {
  MALLOC_ARENA_MAX: '2',
  MALLOC_TRIM_THRESHOLD_: '131072',
};

/** Node's exit code for an option it does not take ("bad option: --x"), before any script runs. */
const EXIT_BAD_OPTION = 9;

/**
 * True when a host ended this way because its runtime refused one of `flags`: a Node or Electron
 * build whose V8 lacks the flag is then started without them, rather than never starting at all
 * (VS Code's desktop Electron was not measured here; only Node 22 and code-server's Node 24 were).
 */
export function refusedNodeFlag(code: number | null, log: string, flags: readonly string[]): boolean {
  if (code !== EXIT_BAD_OPTION) return false;
  const refused = /bad option: (\S+)/.exec(log)?.[1];
  return refused !== undefined && flags.includes(refused);
}

export interface SpawnedHost {
  readonly child: ChildProcess;
  /** Where this start's output begins in the log. */
  readonly logStart: number;
}

/** Starts the host; it is neither waited for nor tied to this process (it may outlive it). */
export function spawnDataHost(command: DataHostCommand, settings: DataHostSettings, nodeFlags: readonly string[] = DATA_HOST_NODE_FLAGS): SpawnedHost {
  ensurePrivateDir(settings.dataDir, DATABASE_FILE);
  const log = openLog(settings.dataDir);
  try {
    const logStart = fstatSync(log).size;
    const child = spawn(command.execPath, [...nodeFlags, ...(command.execArgv ?? []), command.script, ...hostArgs(settings)], {
      detached: true,
      // Not the window's folder: a process outliving the window must not hold a workspace (Windows locks a cwd).
      cwd: settings.dataDir,
      stdio: ['ignore', log, log],
      windowsHide: true,
      // A host started without the flags (its runtime refused them) forks its children without them too.
      env: { ...DATA_HOST_ALLOCATOR_ENV, ...process.env, ...command.env, ...(nodeFlags.length === 0 ? { [NO_NODE_FLAGS_ENV]: '1' } : {}) },
    });
    child.unref();
    return { child, logStart };
  } finally {
    closeSync(log);
  }
}

function openLog(dataDir: string): number {
  const path = join(dataDir, HOST_LOG_FILE);
  try {
    if (statSync(path).size > LOG_ROTATE_BYTES) renameSync(path, `${path}.1`);
  } catch {
    // No log yet.
  }
  return openSync(path, 'a', PRIVATE_FILE_MODE);
}

/** What the log got since `start`, its last `bytes` at most (why a host that ended before serving ended). */
export function hostLogSince(dataDir: string, start: number, bytes = 1500): string {
  let fd: number | undefined;
  try {
    fd = openSync(join(dataDir, HOST_LOG_FILE), 'r');
    const size = fstatSync(fd).size;
    const length = Math.max(0, Math.min(size - start, bytes));
    const buffer = Buffer.alloc(length);
    readSync(fd, buffer, 0, length, size - length);
    const text = buffer.toString('utf8');
    // From the first whole line.
    return length < size - start ? text.slice(text.indexOf('\n') + 1) : text;
  } catch {
    return '';
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
