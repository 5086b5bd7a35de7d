/**
 * Which repository a sync remote is, whatever way it was typed: `…/remote.git` and
 * `…/remote.git/`, a path and `file://` of it, `git@host:owner/repo.git`,
 * `ssh://git@host/owner/repo` and `https://host/owner/repo` all name one repository. Setting a
 * remote that is another one starts over (syncState.ts); the same one spelled otherwise must not,
 * or a delete made elsewhere comes back and untouched records become conflict copies. What git is
 * given stays the URL the user typed.
 */
import { realpathSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const SCHEME = /^([a-z][a-z0-9+.-]*):\/\//i;
/** git's scp-like syntax: `[user@]host:path`, a colon before any slash (a Windows drive letter is a path). */
const SCP = /^(?:[^@/]+@)?([^:/]+):(?!\/\/)(.*)$/;
const DRIVE = /^[a-z]:[\\/]/i;
const DEFAULT_PORTS: Readonly<Record<string, string>> = { ssh: '22', 'git+ssh': '22', 'ssh+git': '22', https: '443', http: '80', git: '9418' };

/** Whether git reads `url` as a path on this machine. */
export function isLocalRemote(url: string): boolean {
  return !SCHEME.test(url) && (DRIVE.test(url) || !SCP.test(url));
}

/** A local path made absolute against `cwd` (a host started elsewhere reads it the same); any other remote as it is. */
export function absoluteRemote(url: string, cwd = process.cwd()): string {
  // Nothing, or what reads as an option, is left for configure to refuse.
  return url !== '' && !url.startsWith('-') && isLocalRemote(url) && !isAbsolute(url) ? resolve(cwd, url) : url;
}

/** The repository `url` names, for comparing: `host[:port]/path` with the host lower-cased, or `file:<real path>` for a local one. */
export function remoteIdentity(url: string, cwd = process.cwd()): string {
  const typed = url.trim();
  const scheme = SCHEME.exec(typed)?.[1]?.toLowerCase();
  if (scheme === 'file') return localIdentity(fileURLToPath(typed));
  if (scheme !== undefined) {
    let parsed: URL;
    try {
      parsed = new URL(typed);
    } catch {
      return typed;
    }
    const port = parsed.port !== '' && parsed.port !== DEFAULT_PORTS[scheme] ? `:${parsed.port}` : '';
    return `${parsed.hostname.toLowerCase()}${port}/${repositoryPath(decodeURIComponent(parsed.pathname))}`;
  }
  if (isLocalRemote(typed)) return localIdentity(resolve(cwd, typed));
  const [, host, path] = SCP.exec(typed)!;
  return `${host!.toLowerCase()}/${repositoryPath(path!)}`;
}

/** A hosted repository's path: no leading `/` or `~/`, no trailing slashes or `.git`. */
function repositoryPath(path: string): string {
  return path
    .replace(/^\/+/, '')
    .replace(/^~\//, '')
    .replace(/\/+$/, '')
    .replace(/\.git$/, '');
}

/** A local repository: its real path (symbolic links followed when it exists), without trailing separators. */
function localIdentity(path: string): string {
  let real = resolve(path);
  try {
    real = realpathSync(real);
  } catch {
    // Not there (yet): compared as written, resolved.
  }
  return `file:${real}`;
}
