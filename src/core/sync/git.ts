/**
 * The user's own `git`, run without a shell on a private repository (GIT_DIR) in the data
 * directory: whatever remote and credentials their git already works with (SSH, HTTPS with their
 * credential helper, a path or file:// repository) work here. Git never prompts for credentials (a
 * host has no terminal to prompt on), speaks English (its messages are matched), and a cancelled
 * sync kills the command under way.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { UnavailableError } from '../errors.ts';

/** Git is not installed (or not on PATH): the sync stops before anything changed. */
export class GitMissingError extends UnavailableError {
  constructor() {
    super('Sync runs your git, and no git executable was found on PATH. Install Git (https://git-scm.com/downloads) and sync again; nothing was changed.');
  }
}

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
  readonly input?: Buffer | string | undefined;
  readonly signal?: AbortSignal | undefined;
  /** Exit codes that are answers rather than failures (merge-file's conflict count, merge-base's 1). */
  readonly allowed?: ReadonlySet<number> | undefined;
}

export class Git {
  readonly gitDir: string;
  private readonly executable: string;
  private readonly env: NodeJS.ProcessEnv;

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
    // A repository or index the caller's environment names is not this one.
    for (const name of ['GIT_INDEX_FILE', 'GIT_WORK_TREE', 'GIT_OBJECT_DIRECTORY', 'GIT_ALTERNATE_OBJECT_DIRECTORIES', 'GIT_COMMON_DIR']) delete this.env[name];
  }

  /** Starts git with `args`: the caller talks to it (cat-file --batch, fast-import). */
  spawn(args: readonly string[]): ChildProcess {
    return spawn(this.executable, args, { env: this.env, stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true });
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
      child.once('close', (code) => {
        options.signal?.removeEventListener('abort', abort);
        if (options.signal?.aborted) return reject(abortError(options.signal));
        const result = { code, stdout: Buffer.concat(out), stderr };
        if (code === 0 || (code !== null && options.allowed?.has(code))) resolve(result);
        else reject(new GitError(args[0] ?? '', code, stderr));
      });
      child.stdin!.on('error', () => {
        // git may exit before reading all of its input (a failing command): its exit says why.
      });
      child.stdin!.end(options.input ?? '');
    });
  }

  async text(args: readonly string[], options: GitRunOptions = {}): Promise<string> {
    return (await this.run(args, options)).stdout.toString('utf8').trim();
  }
}

export function abortError(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new DOMException('The sync was cancelled', 'AbortError');
}

/** Reads objects through one `git cat-file --batch`: each asked oid (or `rev:path`) answered in turn. */
export class ObjectReader {
  private readonly child: ChildProcess;
  private buffer: Buffer = Buffer.alloc(0);
  private readonly waiting: Array<(object: GitObject | undefined) => void> = [];
  private failure: Error | undefined;

  constructor(git: Git) {
    this.child = git.spawn(['cat-file', '--batch']);
    this.child.stdout!.on('data', (chunk: Buffer) => {
      this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
      this.drain();
    });
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

  private drain(): void {
    for (;;) {
      const newline = this.buffer.indexOf(10);
      if (newline < 0 || this.waiting.length === 0) return;
      const header = this.buffer.subarray(0, newline).toString('utf8');
      if (header.endsWith(' missing') || header.endsWith(' ambiguous')) {
        this.buffer = this.buffer.subarray(newline + 1);
        this.waiting.shift()!(undefined);
        continue;
      }
      const [oid, type, size] = header.split(' ');
      const length = Number(size);
      if (this.buffer.length < newline + 1 + length + 1) return;
      const data = Buffer.from(this.buffer.subarray(newline + 1, newline + 1 + length));
      this.buffer = this.buffer.subarray(newline + 1 + length + 1);
      this.waiting.shift()!({ oid: oid!, type: type!, data });
    }
  }

  close(): void {
    this.child.stdin!.end();
  }
}

export interface GitObject {
  readonly oid: string;
  readonly type: string;
  readonly data: Buffer;
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
