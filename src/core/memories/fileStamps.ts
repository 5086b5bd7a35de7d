/**
 * What a memory's cited files held when it was written, and whether they still do. A file is
 * stamped with the sha256 of its bytes (of its first HASHED_BYTES and its size, for a larger one), a folder with that of its sorted entry names, and either,
 * when it lies in a git work tree, with the last commit that touched it. A recall compares: gone,
 * or different bytes (committed or not), makes the memory "may be stale"; the commit says since
 * when. Plain files outside git are checked by their hash alone.
 *
 * Hashes are remembered by path, size and modification time, so listing many memories reads a
 * file again only when it changed.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { lstat, readdir, stat } from 'node:fs/promises';
import { execFile } from 'node:child_process';
import { lowerPriority } from '../childPriority.ts';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import type { MemoryFile } from './memoryFacts.ts';

/** A git that does not answer in this time is taken as no git: a recall never waits on it long. */
const GIT_TIMEOUT_MS = 5_000;
/** Hashes remembered (path, size, mtime → hash). */
const REMEMBERED = 4096;
/**
 * Bytes of a file hashed at most, with its size: a recall never reads more than this of a cited
 * file (a 50 GB dump cited by mistake). A change past it that keeps the size is not seen.
 */
export const HASHED_BYTES = 64 * 1024 * 1024;

/** A cited file as it is now, against what the memory was written with. */
export interface FileCheck {
  readonly path: string;
  /** `unchanged`; `changed` (other bytes, or a file that became a folder); `gone`; `appeared` (missing when written, there now). */
  readonly state: 'unchanged' | 'changed' | 'gone' | 'appeared';
  /** The commit it was written against, and the last one touching it now (when in git and different). */
  readonly commit?: string | undefined;
  readonly commitNow?: string | undefined;
}

export interface Staleness {
  /** Some cited file is gone or changed since the memory was written. */
  readonly stale: boolean;
  readonly files: readonly FileCheck[];
  /** "may be stale: src/a.ts changed, src/b.ts is gone", or undefined when nothing changed. */
  readonly note?: string | undefined;
}

export interface FileStampsOptions {
  /** The git executable (tests name one that is not there). */
  readonly git?: string;
}

export class FileStamps {
  private readonly git: string;
  private readonly hashes = new Map<string, { readonly size: number; readonly mtimeMs: number; readonly hash: string }>();

  constructor(options: FileStampsOptions = {}) {
    this.git = options.git ?? 'git';
  }

  /** The stamp of each path (absolute, or relative to `project`). */
  async stamp(paths: readonly string[], project: string | undefined): Promise<MemoryFile[]> {
    return Promise.all(paths.map((path) => this.stampOne(absolute(path, project))));
  }

  /** The files as they are now against their stamps. */
  async check(files: readonly MemoryFile[]): Promise<Staleness> {
    const checks = await Promise.all(files.map((file) => this.checkOne(file)));
    const moved = checks.filter((check) => check.state === 'changed' || check.state === 'gone');
    const note = moved.length === 0 ? undefined : `may be stale: ${moved.map((check) => `${check.path} ${check.state === 'gone' ? 'is gone' : 'changed'}`).join(', ')} since it was written`;
    return { stale: moved.length > 0, files: checks, ...(note !== undefined ? { note } : {}) };
  }

  private async stampOne(path: string): Promise<MemoryFile> {
    const now = await this.current(path);
    if (now.kind === 'missing') return { path, kind: 'missing' };
    const commit = await this.lastCommit(path, now.kind);
    return { path, kind: now.kind, hash: now.hash, ...(commit !== undefined ? { commit } : {}) };
  }

  private async checkOne(file: MemoryFile): Promise<FileCheck> {
    const now = await this.current(file.path);
    const base = { path: file.path, ...(file.commit !== undefined ? { commit: file.commit } : {}) };
    if (file.kind === 'missing') return { ...base, state: now.kind === 'missing' ? 'unchanged' : 'appeared' };
    if (now.kind === 'missing') return { ...base, state: 'gone' };
    if (now.kind === file.kind && now.hash === file.hash) return { ...base, state: 'unchanged' };
    const commitNow = file.commit !== undefined ? await this.lastCommit(file.path, now.kind) : undefined;
    return { ...base, state: 'changed', ...(commitNow !== undefined && commitNow !== file.commit ? { commitNow } : {}) };
  }

  /** What is at `path` now: its kind and hash. */
  private async current(path: string): Promise<{ kind: 'missing' } | { kind: 'file' | 'folder'; hash: string }> {
    let info;
    try {
      info = await stat(path);
    } catch {
      // A dangling link is as gone as a missing file.
      return { kind: 'missing' };
    }
    if (info.isDirectory()) return { kind: 'folder', hash: await folderHash(path) };
    if (!info.isFile()) return { kind: 'missing' };
    const key = path;
    const known = this.hashes.get(key);
    if (known && known.size === info.size && known.mtimeMs === info.mtimeMs) return { kind: 'file', hash: known.hash };
    const hash = await fileHash(path, info.size);
    this.hashes.delete(key);
    this.hashes.set(key, { size: info.size, mtimeMs: info.mtimeMs, hash });
    if (this.hashes.size > REMEMBERED) this.hashes.delete(this.hashes.keys().next().value as string);
    return { kind: 'file', hash };
  }

  /** The last commit touching `path` in the git work tree holding it; undefined outside git, untracked, or without git. */
  private async lastCommit(path: string, kind: 'file' | 'folder'): Promise<string | undefined> {
    const cwd = kind === 'folder' ? path : dirname(path);
    if (!(await insideGit(cwd))) return undefined;
    const out = await run(this.git, ['log', '-1', '--format=%H', '--', path], cwd);
    const commit = out?.trim();
    return commit && /^[0-9a-f]{40,64}$/.test(commit) ? commit : undefined;
  }
}

function absolute(path: string, project: string | undefined): string {
  if (isAbsolute(path)) return resolve(path);
  return project !== undefined ? resolve(project, path) : resolve(path);
}

function fileHash(path: string, size: number): Promise<string> {
  return new Promise<string>((done, fail) => {
    const hash = createHash('sha256');
    // The size is part of what is hashed only where the bytes are cut, so a whole file's hash is its sha256.
    if (size > HASHED_BYTES) hash.update(`${size}\n`);
    createReadStream(path, { end: HASHED_BYTES - 1 })
      .on('data', (chunk) => hash.update(chunk))
      .on('error', fail)
      .on('end', () => done(hash.digest('hex')));
  }).catch(() => 'unreadable');
}

/** A folder's entries (names and kinds), sorted: entries added, removed or renamed change it. */
async function folderHash(path: string): Promise<string> {
  try {
    const entries = await readdir(path, { withFileTypes: true });
    const names = entries.map((entry) => `${entry.isDirectory() ? 'd' : 'f'}:${entry.name}`).sort();
    return createHash('sha256').update(names.join('\n'), 'utf8').digest('hex');
  } catch {
    return 'unreadable';
  }
}

/** Whether `dir` or a folder above it holds `.git` (a lookup before starting git at all). */
async function insideGit(dir: string): Promise<boolean> {
  for (let at = dir; ; ) {
    try {
      await lstat(join(at, '.git'));
      return true;
    } catch {
      const up = dirname(at);
      if (up === at) return false;
      at = up;
    }
  }
}

/** Runs git below the host's priority, as sync's git does (childPriority.ts): a recall's stamps are not what the editor waits on. */
function run(command: string, args: readonly string[], cwd: string): Promise<string | undefined> {
  return new Promise((done) => {
    const child = execFile(command, args, { cwd, timeout: GIT_TIMEOUT_MS, maxBuffer: 1 << 16, windowsHide: true }, (error, stdout) => done(error ? undefined : stdout));
    lowerPriority(child);
  });
}
