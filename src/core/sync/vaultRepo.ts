/**
 * The vault as git objects in the private repository (`<data dir>/sync/repo.git`): record folders
 * found by path in a commit's tree, changed records listed by comparing two trees (git skips equal
 * subtrees, so the cost follows the changes), records read through one `cat-file --batch`, and new
 * commits written by one `fast-import` from a parent's tree plus the changed folders. Nothing here
 * walks the whole tree except a first sync's listing of a remote that already holds a library.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Git, GitError, MAX_VAULT_FILE_BYTES, ObjectReader, olderThan, treeEntries } from './git.ts';
import { idOfSegment, VAULT_MARKER, type VaultFile } from './vaultFormat.ts';
import { fastImportStream, type CommitPlan } from './fastImport.ts';
import { countText } from '../countText.ts';

export type { CommitPlan, FolderChange, FolderTree } from './fastImport.ts';

/** Git's empty tree: a commit-less side of a comparison. */
const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';
const REMOTE_REF = 'refs/satchel/remote';
export const LOCAL_REF = 'refs/satchel/local';
export const MERGED_REF = 'refs/satchel/merged';
export const SYNCED_REF = 'refs/satchel/synced';

const blobOids = new WeakMap<Buffer, string>();

/** The git object id of a blob with these bytes (what `git hash-object` says); a record's file is hashed once. */
export function blobOid(data: Buffer): string {
  let oid = blobOids.get(data);
  if (oid === undefined) {
    oid = createHash('sha1').update(`blob ${data.length}\0`).update(data).digest('hex');
    blobOids.set(data, oid);
  }
  return oid;
}

/** The git tree id of a record's folder: computed here, so a record is compared with a commit's without git. */
export function folderOid(files: readonly VaultFile[]): string {
  const body = Buffer.concat(
    [...files]
      .sort((a, b) => Buffer.compare(Buffer.from(a.name), Buffer.from(b.name)))
      .flatMap((file) => [Buffer.from(`100644 ${file.name}\0`, 'utf8'), Buffer.from(blobOid(file.data), 'hex')]),
  );
  return createHash('sha1').update(`tree ${body.length}\0`).update(body).digest('hex');
}

export class VaultRepo {
  readonly git: Git;
  readonly dir: string;

  constructor(syncDir: string, executable?: string) {
    this.dir = syncDir;
    this.git = new Git(join(syncDir, 'repo.git'), executable);
  }

  /** Checks the git (its version, once), then creates the private bare repository the first time (git's own `init`, so that git reads it). */
  async init(): Promise<void> {
    await this.git.checkVersion();
    if (existsSync(join(this.git.gitDir, 'HEAD'))) return;
    mkdirSync(this.dir, { recursive: true });
    // SHA-1 whatever the user's git makes by default: folder ids are computed here as SHA-1.
    await this.git.run(['init', '--bare', '--quiet', '--object-format=sha1', this.git.gitDir]);
    await this.git.run(['config', 'core.logAllRefUpdates', 'false']);
  }

  /** The commit a ref or oid names, or undefined. */
  async resolve(name: string): Promise<string | undefined> {
    const result = await this.git.run(['rev-parse', '--verify', '--quiet', `${name}^{commit}`], { allowed: new Set([1, 128]) });
    const oid = result.stdout.toString().trim();
    return result.code === 0 && oid !== '' ? oid : undefined;
  }

  async setRef(ref: string, oid: string | undefined): Promise<void> {
    if (oid === undefined) await this.git.run(['update-ref', '-d', ref], { allowed: new Set([1]) });
    else await this.git.run(['update-ref', ref, oid]);
  }

  /** The remote branch's head (undefined when the remote has no such branch yet). */
  async fetch(url: string, branch: string, signal?: AbortSignal): Promise<string | undefined> {
    try {
      await this.git.run(['fetch', '--quiet', '--no-tags', '--no-write-fetch-head', '--no-auto-gc', url, `+refs/heads/${branch}:${REMOTE_REF}`], { signal });
    } catch (error) {
      if (!(error instanceof GitError) || !/couldn't find remote ref/i.test(error.stderr)) throw error;
      await this.setRef(REMOTE_REF, undefined);
      return undefined;
    }
    return this.resolve(REMOTE_REF);
  }

  /**
   * The branch the remote's HEAD names (what a `git clone` of it checks out). An empty remote's
   * unborn HEAD is learnt by cloning it (nothing to download), with git 2.31 or later (before it,
   * a clone of an empty repository names the local default); undefined when it cannot be told.
   */
  async remoteHead(url: string, signal?: AbortSignal): Promise<string | undefined> {
    // One listing tells both: the branch a born HEAD names, and whether the remote has any ref at all.
    const listed = (await this.git.run(['ls-remote', '--symref', url], { signal })).stdout.toString('utf8');
    const born = /^ref: refs\/heads\/(\S+)\tHEAD$/m.exec(listed);
    if (born) return born[1];
    const version = await this.git.checkVersion();
    if (version === undefined || olderThan(version, [2, 31, 0]) || listed.length > 0) return undefined;
    mkdirSync(this.dir, { recursive: true });
    const tmp = mkdtempSync(join(this.dir, 'head-'));
    try {
      await this.git.run(['clone', '--bare', '--quiet', url, join(tmp, 'empty.git')], { signal });
      const head = await new Git(join(tmp, 'empty.git'), this.git.executable).run(['symbolic-ref', '--quiet', 'HEAD'], { allowed: new Set([1]) });
      const ref = head.stdout.toString('utf8').trim();
      return ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : undefined;
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  }

  /** Pushes `oid` as the branch, fast-forward only: 'rejected' when the remote moved meanwhile. */
  async push(url: string, branch: string, oid: string, signal?: AbortSignal): Promise<'pushed' | 'rejected'> {
    const result = await this.git.run(['push', '--porcelain', '--quiet', url, `${oid}:refs/heads/${branch}`], { signal, allowed: new Set([1]) });
    if (result.code === 0) return 'pushed';
    const said = `${result.stdout.toString('utf8')}\n${result.stderr}`;
    // Pushed after another machine: refused as not a fast-forward, or (two pushes at once) the ref lock lost.
    if (/\[rejected\]|non-fast-forward|fetch first|stale info|cannot lock ref|is at [0-9a-f]+ but expected/.test(said)) return 'rejected';
    if (/\[remote rejected\]|hook declined/.test(said)) throw new PushRefusedError(said);
    throw new GitError('push', result.code, said);
  }

  async isAncestor(ancestor: string, of: string): Promise<boolean> {
    return (await this.git.run(['merge-base', '--is-ancestor', ancestor, of], { allowed: new Set([1]) })).code === 0;
  }

  /** The best common ancestor of two commits, or undefined when they share no history. */
  async mergeBase(a: string, b: string): Promise<string | undefined> {
    const result = await this.git.run(['merge-base', a, b], { allowed: new Set([1]) });
    const oid = result.stdout.toString('utf8').trim();
    return result.code === 0 && oid !== '' ? oid : undefined;
  }

  /**
   * Every version (folder id) each record's folder under `root` had in the history of `commit`, by
   * the folder's path: how a remote that shares no history with this machine is told apart from
   * one that holds an older version of a record (syncBase.ts). Reads the whole history of `root`:
   * only asked when a remote's history was replaced.
   */
  async folderHistory(commit: string, root: string, signal?: AbortSignal): Promise<Map<string, Set<string>>> {
    const out = await this.git.run(['log', '--raw', '-t', '--no-abbrev', '--no-renames', '--format=', commit, '--', root], { signal });
    const versions = new Map<string, Set<string>>();
    for (const line of out.stdout.toString('utf8').split('\n')) {
      const match = /^:\d+ 040000 [0-9a-f]+ ([0-9a-f]+) \w+\t(.+)$/.exec(line);
      if (match === null || match[2]!.split('/').length !== 3) continue;
      const path = match[2]!;
      let set = versions.get(path);
      if (set === undefined) versions.set(path, (set = new Set()));
      set.add(match[1]!);
    }
    return versions;
  }

  /** Ids of the records whose folders differ between two commits (either may be none), by the vault folder (`roots`) they are in. */
  async changedIds(from: string | undefined, to: string | undefined, roots: readonly string[], signal?: AbortSignal): Promise<Map<string, string[]>> {
    const ids = new Map(roots.map((root) => [root, new Set<string>()]));
    if (from !== to) {
      const out = await this.git.run(['diff-tree', '-r', '--name-only', '-z', '--no-renames', from ?? EMPTY_TREE, to ?? EMPTY_TREE, '--', ...roots], { signal });
      for (const path of out.stdout.toString('utf8').split('\0')) {
        const parts = path.split('/');
        if (parts.length >= 4) ids.get(parts[0]!)?.add(idOfSegment(parts[2]!));
      }
    }
    return new Map([...ids].map(([root, set]) => [root, [...set]]));
  }

  /** The folder (tree) id of each record in a commit, its folder's path given by `dirOf`; absent ones are left out. */
  async folders(commit: string | undefined, ids: Iterable<string>, dirOf: (id: string) => string): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    if (commit === undefined) return out;
    const list = [...ids];
    if (list.length === 0) return out;
    const result = await this.git.run(['cat-file', '--batch-check=%(objectname) %(objecttype)'], { input: list.map((id) => `${commit}:${dirOf(id)}\n`).join('') });
    result.stdout
      .toString('utf8')
      .split('\n')
      .slice(0, list.length)
      .forEach((line, index) => {
        const [oid, type] = line.split(' ');
        if (type === 'tree') out.set(list[index]!, oid!);
      });
    return out;
  }

  /** The records of the given folders, by id, as `parse` reads them (a folder that is not a record is left out and reported). */
  async records<R>(folders: ReadonlyMap<string, string>, parse: (id: string, files: readonly VaultFile[]) => R, onBad?: (id: string, reason: string) => void): Promise<Map<string, R>> {
    const out = new Map<string, R>();
    if (folders.size === 0) return out;
    const reader = new ObjectReader(this.git, MAX_VAULT_FILE_BYTES);
    try {
      await Promise.all(
        [...folders].map(async ([id, oid]) => {
          const tree = await reader.read(oid);
          if (tree === undefined) return onBad?.(id, 'its folder is missing from the repository');
          const entries = treeEntries(tree.data).filter((entry) => entry.mode !== '40000');
          const objects = await Promise.all(entries.map((entry) => reader.read(entry.oid)));
          const over = objects.findIndex((object) => object?.oversized === true);
          if (over >= 0) return onBad?.(id, `${entries[over]!.name} holds ${countText(objects[over]!.size)} bytes, more than any record within the limits (docs/limits.md)`);
          const files = entries.map((entry, index) => ({ name: entry.name, data: objects[index]?.data ?? Buffer.alloc(0) }));
          try {
            out.set(id, parse(id, files));
          } catch (error) {
            onBad?.(id, (error as Error).message);
          }
        }),
      );
    } finally {
      reader.close();
    }
    return out;
  }

  /** The vault format a commit says it is in; 0 when it has no satchel.json (not a Satchel vault), 1 when it is empty. */
  async formatOf(commit: string): Promise<number> {
    const result = await this.git.run(['cat-file', 'blob', `${commit}:${VAULT_MARKER}`], { allowed: new Set([128]) });
    if (result.code !== 0) return (await this.git.run(['ls-tree', '--name-only', commit])).stdout.length === 0 ? 1 : 0;
    try {
      const parsed: unknown = JSON.parse(result.stdout.toString('utf8'));
      return typeof parsed === 'object' && parsed !== null && 'format' in parsed && typeof parsed.format === 'number' ? parsed.format : 0;
    } catch {
      return 0;
    }
  }

  /**
   * Writes the commits (each its parent's tree with its changes) in one fast-import, and points
   * each plan's ref at its commit; returns the commits' ids in order.
   */
  async commit(plans: readonly CommitPlan[], signal?: AbortSignal): Promise<string[]> {
    await this.git.run(['fast-import', '--quiet', '--done', '--force'], { input: fastImportStream(plans), signal });
    const oids = await this.git.text(['rev-parse', ...plans.map((plan) => plan.ref)]);
    return oids.split('\n');
  }

  /**
   * Merges two versions of a text line by line against their base; undefined when lines conflict
   * or git cannot merge them (exit 255: a text with a NUL, which git takes for binary): a conflict
   * copy then, never a sync that fails every time.
   */
  async mergeText(base: string, ours: string, theirs: string): Promise<string | undefined> {
    mkdirSync(this.dir, { recursive: true });
    const tmp = mkdtempSync(join(this.dir, 'merge-'));
    try {
      const [b, o, t] = ['base', 'ours', 'theirs'].map((name) => join(tmp, name));
      writeFileSync(b!, base);
      writeFileSync(o!, ours);
      writeFileSync(t!, theirs);
      const result = await this.git.run(['merge-file', '-p', '-q', o!, b!, t!], { allowed: new Set(Array.from({ length: 255 }, (_, i) => i + 1)) });
      return result.code === 0 ? result.stdout.toString('utf8') : undefined;
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  }
}

/** The remote's own rules refused the push (a protected branch, signed commits required): said plainly, with the remote's words. */
export class PushRefusedError extends GitError {
  constructor(said: string) {
    super('push', 1, said);
    const remote = said
      .split('\n')
      .filter((line) => line.startsWith('remote:') || line.includes('rejected'))
      .map((line) => line.replace(/^remote:\s*/, '').trim())
      .filter(Boolean)
      .slice(-4)
      .join(' ');
    this.message =
      `The remote refused the sync's push: ${remote || 'its rules declined it'}. Satchel writes its own commits, unsigned, to one branch; ` +
      'a branch that requires signed commits, reviews or other checks cannot take them: sync with a repository or a branch (--branch) without that rule. Nothing was changed here.';
  }
}
