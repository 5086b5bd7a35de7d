/**
 * The user's own `git`, run without a shell on a private repository (GIT_DIR) in the data
 * directory: whatever remote and credentials their git already works with (SSH, HTTPS with their
 * credential helper, a path or file:// repository) work here. Git never prompts for credentials (a
 * host has no terminal to prompt on), speaks English (its messages are matched), and a cancelled
 * sync kills the command under way.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { UnavailableError } from '../errors.ts';
import { lowerPriority } from '../childPriority.ts';

/** Git is not installed (or not on PATH): the sync stops before anything changed. */
export class GitMissingError extends UnavailableError {
  constructor() {
    super('Sync runs your git, and no git executable was found on PATH. Install Git (https://git-scm.com/downloads) and sync again; nothing was changed.');
  }
}

/**
 * The oldest git whose commands and flags sync uses: `git fetch --no-write-fetch-head` came in
 * 2.29 (the rest, `ls-remote --symref`, `cat-file --batch-check=<format>`, `merge-base
 * --is-ancestor`, `fast-import --done`, `fetch --no-auto-gc`, is older).
 */
export const MIN_GIT_VERSION = [2, 29, 0] as const;

/** The git on PATH is older than sync needs: the sync stops before anything changed. */
export class GitTooOldError extends UnavailableError {
  constructor(found: string) {
    super(
      `Sync needs git ${MIN_GIT_VERSION.join('.')} or later, and the git on PATH is ${found}. ` +
        'Update Git (https://git-scm.com/downloads) and sync again; nothing was changed.',
    );
  }
}

/** The version `git --version` printed ("git version 2.39.2", "2.37.1 (Apple Git-137.1)", "2.41.0.windows.1"), or undefined when it reads as none. */
export function parseGitVersion(text: string): { readonly numbers: readonly number[]; readonly text: string } | undefined {
  const match = /git version (\d+)\.(\d+)(?:\.(\d+))?\S*/.exec(text);
  return match ? { numbers: [Number(match[1]), Number(match[2]), Number(match[3] ?? 0)], text: match[0].slice('git version '.length) } : undefined;
}

export function olderThan(version: readonly number[], minimum: readonly number[]): boolean {
  for (let i = 0; i < minimum.length; i++) if ((version[i] ?? 0) !== minimum[i]) return (version[i] ?? 0) < minimum[i]!;
  return false;
}

/** Executables whose version was found good enough (checked once per process; a failed check is made again next time). */
const checkedVersions = new Map<string, Promise<readonly number[] | undefined>>();

/** A git command failed; `stderr` is what git said. */
export class GitError extends UnavailableError {
  readonly stderr: string;
  readonly exitCode: number | null;
  constructor(command: string, exitCode: number | null, stderr: string) {
    super(`git ${command} failed${exitCode !== null ? ` (exit ${exitCode})` : ''}: ${stderr.trim().split('\n').slice(-3).join(' ') || 'no message'}`);
    this.stderr = stderr;
    this.exitCode = exitCode;
  }
}

export interface GitResult {
  readonly code: number | null;
  readonly stdout: Buffer;
  readonly stderr: string;
}

export interface GitRunOptions {
  /** What git reads on its stdin; an iterable is streamed as git takes it (fast-import of a whole library), never held whole. */
  readonly input?: Buffer | string | AsyncIterable<Buffer> | undefined;
  readonly signal?: AbortSignal | undefined;
  /** Exit codes that are answers rather than failures (merge-file's conflict count, merge-base's 1). */
  readonly allowed?: ReadonlySet<number> | undefined;
}

export class Git {
  readonly gitDir: string;
  readonly executable: string;
  private readonly env: NodeJS.ProcessEnv;
  /** `-c` settings every command runs with. */
  private readonly settings: readonly string[];

  constructor(gitDir: string, executable = 'git', env: NodeJS.ProcessEnv = process.env) {
    this.gitDir = gitDir;
    this.executable = executable;
    this.env = {
      ...env,
      GIT_DIR: gitDir,
      // Git's own prompts are off (a host has no terminal to ask on). SSH is left as the user set it
      // up (core.sshCommand, ~/.ssh/config, an agent): without a terminal it cannot ask and fails.
      GIT_TERMINAL_PROMPT: '0',
      LC_ALL: 'C',
      LANGUAGE: 'C',
    };
    // A repository or index the caller's environment names is not this one; nor is the hash it asks
    // new repositories to use (GIT_DEFAULT_HASH=sha256): the vault's ids are SHA-1 (vaultRepo.ts).
    for (const name of ['GIT_INDEX_FILE', 'GIT_WORK_TREE', 'GIT_OBJECT_DIRECTORY', 'GIT_ALTERNATE_OBJECT_DIRECTORIES', 'GIT_COMMON_DIR', 'GIT_DEFAULT_HASH']) delete this.env[name];
    this.settings = [
      // The user's hooks (a global core.hooksPath, an init template's) are for their own repositories,
      // not this private one: a pre-push or reference-transaction hook that refuses would fail every
      // sync. A path that does not exist holds no hook. (The remote's own hooks still run there.)
      '-c', `core.hooksPath=${join(gitDir, 'no-hooks')}`,
      // Commits are written by fast-import, never signed; a push certificate would need a key and a
      // server that asks for one.
      '-c', 'push.gpgSign=false',
    ];
  }

  /**
   * Refuses a git older than MIN_GIT_VERSION (GitTooOldError), once per executable; a version
   * that does not read as one (an unusual build) is let through.
   */
  checkVersion(): Promise<readonly number[] | undefined> {
    let checked = checkedVersions.get(this.executable);
    if (checked === undefined) {
      checked = this.text(['--version']).then((said) => {
        const version = parseGitVersion(said);
        if (version !== undefined && olderThan(version.numbers, MIN_GIT_VERSION)) throw new GitTooOldError(version.text);
        return version?.numbers;
      });
      checkedVersions.set(this.executable, checked);
      checked.catch(() => checkedVersions.delete(this.executable));
    }
    return checked;
  }

  /** Starts git with `args`: the caller talks to it (cat-file --batch, fast-import). */
  spawn(args: readonly string[]): ChildProcess {
    // `--version` is asked as it is: it touches no repository, and a wrapper may answer it alone.
    const settings = args[0] === '--version' ? [] : this.settings;
    const child = spawn(this.executable, [...settings, ...args], { env: this.env, stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true });
    lowerPriority(child);
    return child;
  }

  /** Runs git to its end; throws GitError on a failing exit, GitMissingError when there is no git. */
  run(args: readonly string[], options: GitRunOptions = {}): Promise<GitResult> {
    return new Promise<GitResult>((resolve, reject) => {
      if (options.signal?.aborted) return reject(abortError(options.signal));
      const child = this.spawn(args);
      const out: Buffer[] = [];
      let stderr = '';
      child.stdout!.on('data', (chunk: Buffer) => out.push(chunk));
      child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const abort = (): void => void child.kill('SIGTERM');
      options.signal?.addEventListener('abort', abort, { once: true });
      child.once('error', (error: NodeJS.ErrnoException) => {
        options.signal?.removeEventListener('abort', abort);
        reject(error.code === 'ENOENT' ? new GitMissingError() : error);
      });
      // An input that failed while streamed: git saw its input end early, the failure is the reason.
      let inputFailed: { error: unknown } | undefined;
      child.once('close', (code) => {
        options.signal?.removeEventListener('abort', abort);
        if (options.signal?.aborted) return reject(abortError(options.signal));
        if (inputFailed !== undefined) return reject(inputFailed.error);
        const result = { code, stdout: Buffer.concat(out), stderr };
        if (code === 0 || (code !== null && options.allowed?.has(code))) resolve(result);
        else reject(new GitError(args[0] ?? '', code, stderr));
      });
      child.stdin!.on('error', () => {
        // git may exit before reading all of its input (a failing command): its exit says why.
      });
      const input = options.input ?? '';
      if (typeof input === 'string' || Buffer.isBuffer(input)) return void child.stdin!.end(input);
      void feed(input, child.stdin!, (error) => {
        inputFailed = { error };
        // Stopped rather than shown an input that ends early (fast-import would leave a crash report in the repository).
        child.kill('SIGTERM');
      });
    });
  }

  async text(args: readonly string[], options: GitRunOptions = {}): Promise<string> {
    return (await this.run(args, options)).stdout.toString('utf8').trim();
  }
}

/**
 * Writes `input` to git's stdin as git takes it: a chunk is asked for when the one before it is on
 * its way (so making one overlaps git reading the last), and chunk N is written whole, taken by the
 * pipe, before chunk N+2 is asked for: a producer may write chunk N+2 into chunk N's memory
 * (fastImport.ts uses two buffers in turn). An input that fails is told to `failed`; a write that
 * fails (git exited) ends the input, and git's exit says why.
 */
async function feed(input: AsyncIterable<Buffer>, stdin: Writable, failed: (error: unknown) => void): Promise<void> {
  const iterator = input[Symbol.asyncIterator]();
  let before: Promise<boolean> = Promise.resolve(true);
  for (;;) {
    let next: IteratorResult<Buffer>;
    try {
      next = await iterator.next();
    } catch (error) {
      failed(error);
      stdin.destroy();
      return;
    }
    if (next.done === true) break;
    const chunk = next.value;
    const writing = new Promise<boolean>((resolve) => stdin.write(chunk, (error) => resolve(error == null)));
    if (!(await before)) {
      // Git stopped reading (it exited, or was stopped): the input is closed, git's exit says why.
      await Promise.resolve(iterator.return?.()).catch(() => undefined);
      return;
    }
    before = writing;
  }
  if (await before) stdin.end();
}

export function abortError(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new DOMException('The sync was cancelled', 'AbortError');
}

/**
 * The largest file a vault record can hold within the limits of src/core/limits.ts: a text of 4 Mi
 * characters is at most 12 MiB of UTF-8 (3 bytes per UTF-16 unit), and its front matter adds little.
 * A larger blob cannot be a record the limits let through, so it is not kept in memory.
 */
export const MAX_VAULT_FILE_BYTES = 13 * 1024 * 1024;

/** An object `git cat-file --batch` is sending: its header read, its bytes arriving. */
interface Incoming {
  readonly oid: string;
  readonly type: string;
  readonly size: number;
  /** Its bytes so far, as they came (joined once, at the end); undefined when it is over the bound and dropped. */
  readonly chunks: Buffer[] | undefined;
  /** Bytes still to come, the newline after the object included. */
  remaining: number;
}

/**
 * Reads objects through one `git cat-file --batch`: each asked oid (or `rev:path`) answered in turn.
 * Bytes are collected per object and joined once (joining each 64 KiB chunk onto what came before
 * copied a 63 MB blob about 500 times over and held the event loop for seconds); an object larger
 * than `maxBytes`, known from its header, is answered `oversized` with no data and its bytes are
 * dropped as they arrive.
 */
export class ObjectReader {
  private readonly child: ChildProcess;
  private header: Buffer[] = [];
  private incoming: Incoming | undefined;
  private readonly waiting: Array<(object: GitObject | undefined) => void> = [];
  private failure: Error | undefined;
  private readonly maxBytes: number;

  constructor(git: Git, maxBytes = Number.POSITIVE_INFINITY) {
    this.maxBytes = maxBytes;
    this.child = git.spawn(['cat-file', '--batch']);
    this.child.stdout!.on('data', (chunk: Buffer) => this.take(chunk));
    this.child.stdin!.on('error', () => undefined);
    const fail = (error: Error): void => {
      this.failure = error;
      for (const resolve of this.waiting.splice(0)) resolve(undefined);
    };
    this.child.once('error', (error: NodeJS.ErrnoException) => fail(error.code === 'ENOENT' ? new GitMissingError() : error));
    this.child.once('close', () => fail(this.failure ?? new Error('git cat-file ended')));
  }

  /** The object, or undefined when it does not exist. */
  read(name: string): Promise<GitObject | undefined> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise<GitObject | undefined>((resolve, reject) => {
      this.waiting.push((object) => (object === undefined && this.failure ? reject(this.failure) : resolve(object)));
      this.child.stdin!.write(`${name}\n`);
    });
  }

  private take(chunk: Buffer): void {
    for (let at = 0; at < chunk.length; ) {
      const object = this.incoming;
      if (object === undefined) {
        const newline = chunk.indexOf(10, at);
        this.header.push(chunk.subarray(at, newline < 0 ? chunk.length : newline));
        if (newline < 0) return;
        at = newline + 1;
        this.begin(Buffer.concat(this.header).toString('utf8'));
        this.header = [];
        continue;
      }
      const end = Math.min(chunk.length, at + object.remaining);
      object.chunks?.push(chunk.subarray(at, end));
      object.remaining -= end - at;
      at = end;
      if (object.remaining === 0) {
        this.incoming = undefined;
        this.answer(object);
      }
    }
  }

  private begin(header: string): void {
    if (header.endsWith(' missing') || header.endsWith(' ambiguous')) return void this.waiting.shift()?.(undefined);
    const [oid = '', type = '', size] = header.split(' ');
    const length = Number(size);
    this.incoming = { oid, type, size: length, chunks: length > this.maxBytes ? undefined : [], remaining: length + 1 };
  }

  private answer(object: Incoming): void {
    const resolve = this.waiting.shift();
    if (object.chunks === undefined) return void resolve?.({ oid: object.oid, type: object.type, size: object.size, data: Buffer.alloc(0), oversized: true });
    const data = Buffer.concat(object.chunks).subarray(0, object.size);
    resolve?.({ oid: object.oid, type: object.type, size: object.size, data, oversized: false });
  }

  close(): void {
    this.child.stdin!.end();
  }
}

export interface GitObject {
  readonly oid: string;
  readonly type: string;
  /** Its size in bytes, as git said. */
  readonly size: number;
  /** Its bytes; empty when `oversized`. */
  readonly data: Buffer;
  /** Larger than the reader's bound: its bytes were dropped unread. */
  readonly oversized: boolean;
}

/** A tree object's entries: mode, name and oid of each. */
export function treeEntries(data: Buffer): Array<{ mode: string; name: string; oid: string }> {
  const entries: Array<{ mode: string; name: string; oid: string }> = [];
  for (let at = 0; at < data.length; ) {
    const space = data.indexOf(32, at);
    const nul = data.indexOf(0, space);
    entries.push({ mode: data.subarray(at, space).toString(), name: data.subarray(space + 1, nul).toString('utf8'), oid: data.subarray(nul + 1, nul + 21).toString('hex') });
    at = nul + 21;
  }
  return entries;
}
