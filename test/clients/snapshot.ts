/**
 * Finds a pinned Pieces client's source on this machine and extracts its `src/` (or the pin's `tree`) at the pinned
 * commit into a cache outside the repository (the clients' code is never committed here).
 *
 * Where it looks, in order:
 *   1. the git checkout named by the client's env variable (pinned.ts: PIECES_CLI_SRC, ...). Set
 *      but unusable is an error, not a skip: someone asked for that copy. A directory that is not a
 *      git repository but has src/<package> (an unpacked release archive) is used as it is;
 *   2. the session's fetch mirror, <PIECES_CLIENTS_MIRROR or /work/.mirror>/<owner>+<name>/repo (a
 *      git directory without work tree, or a clone with one). PIECES_CLIENTS_MIRROR=off hides it.
 * Nothing found: a skip reason saying how to provide the source. A fresh machine cannot download
 * the clients (GitHub and PyPI are unreachable), so their absence is not a failure.
 *
 * The cache is <PIECES_CLIENTS_CACHE or os.tmpdir()/satchel-pieces-clients>/<name>-<commit>/src,
 * written once (extracted into a sibling directory, then renamed) and reused by later runs.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { PinnedClient } from './pinned.ts';

export type ClientSource =
  | { readonly src: string; readonly from: string; readonly skip?: undefined }
  | { readonly skip: string; readonly src?: undefined; readonly from?: undefined };

const DEFAULT_MIRROR = '/work/.mirror';

export function clientSource(pin: PinnedClient): ClientSource {
  const short = pin.commit.slice(0, 7);
  const given = process.env[pin.env];
  if (given) return fromCheckout(pin, resolve(given));

  const mirrorRoot = process.env['PIECES_CLIENTS_MIRROR'] ?? DEFAULT_MIRROR;
  const looked: string[] = [];
  if (mirrorRoot !== 'off') {
    const repo = join(mirrorRoot, pin.repo.replace('/', '+'), 'repo');
    looked.push(repo);
    for (const gitDir of [join(repo, '.git'), repo]) {
      if (hasCommit(gitDir, pin.commit)) return { src: extract(pin, gitDir), from: `${gitDir} @ ${short}` };
    }
  }
  return {
    skip:
      `no local copy of ${pin.repo} at commit ${short} ` +
      `(${looked.length ? `looked in ${looked.join(', ')}` : 'mirror lookup off'}); ` +
      `set ${pin.env} to a git checkout of ${pin.repo} that contains ${pin.commit} (see test/clients/pinned.ts)`,
  };
}

function fromCheckout(pin: PinnedClient, dir: string): ClientSource {
  // A work tree's .git (directory, or file for a linked worktree), or a bare repository itself; not
  // a parent repository the directory happens to sit in.
  const gitDir = existsSync(join(dir, '.git'))
    ? git(['-C', dir, 'rev-parse', '--absolute-git-dir'])
    : existsSync(join(dir, 'HEAD')) && existsSync(join(dir, 'objects'))
      ? dir
      : undefined;
  if (gitDir !== undefined) {
    if (!hasCommit(gitDir, pin.commit)) {
      throw new Error(`${pin.env}=${dir} is a git repository without the pinned commit ${pin.commit} of ${pin.repo} (git fetch it there)`);
    }
    return { src: extract(pin, gitDir), from: `${dir} @ ${pin.commit.slice(0, 7)}` };
  }
  const tree = pin.tree ?? 'src';
  if (isDir(join(dir, tree, pin.pkg))) {
    return { src: join(dir, tree), from: `${dir} (not a git repository: taken as ${pin.repo} ${pin.commit.slice(0, 7)} unchecked)` };
  }
  throw new Error(`${pin.env}=${dir} is neither a git checkout of ${pin.repo} nor a directory with ${join(tree, pin.pkg)}`);
}

function extract(pin: PinnedClient, gitDir: string): string {
  const root = process.env['PIECES_CLIENTS_CACHE'] ?? join(tmpdir(), 'satchel-pieces-clients');
  const target = join(root, `${pin.repo.split('/')[1]}-${pin.commit}`);
  const tree = pin.tree ?? 'src';
  const src = join(target, tree);
  if (isDir(join(src, pin.pkg))) return src;
  mkdirSync(root, { recursive: true });
  // Extracted beside the target and renamed into place: a run killed midway, or another test
  // process extracting the same commit, never leaves a half-written copy under the target's name.
  const part = mkdtempSync(join(root, '.part-'));
  try {
    const tar = join(part, 'src.tar');
    execFileSync('git', ['--git-dir', gitDir, 'archive', '--format=tar', '-o', tar, pin.commit, ...(tree ? [tree] : [])], { stdio: ['ignore', 'ignore', 'pipe'] });
    execFileSync('tar', ['-xf', tar, '-C', part], { stdio: ['ignore', 'ignore', 'pipe'] });
    rmSync(tar);
    try {
      renameSync(part, target);
    } catch (error) {
      // Another process won the race: its copy is whole (it too renamed a finished directory).
      if (!isDir(join(src, pin.pkg))) throw error;
    }
  } finally {
    rmSync(part, { recursive: true, force: true });
  }
  if (!isDir(join(src, pin.pkg))) throw new Error(`${pin.repo} ${pin.commit} has no ${join(tree, pin.pkg)}`);
  return src;
}

function hasCommit(gitDir: string, commit: string): boolean {
  return existsSync(gitDir) && git(['--git-dir', gitDir, 'cat-file', '-e', `${commit}^{commit}`]) !== undefined;
}

/** git's trimmed output, or undefined when it fails (not a repository, object missing). */
function git(args: string[]): string | undefined {
  try {
    return execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
}

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
