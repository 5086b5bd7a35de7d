/**
 * `satchel export --vault DIR`: the library written as a plain-file vault (vaultFormat.ts). A new
 * or empty directory gets the vault; an existing vault is brought up to date (folders of assets no
 * longer in the library removed); any other non-empty directory is refused, nothing written.
 * Records are read a page at a time with a turn of the event loop between pages; progress is
 * reported and a cancel stops between pages (what was written stays, and the summary says so).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InvalidInputError } from '../errors.ts';
import type { LibraryRecords } from './libraryRecords.ts';
import { ASSETS_DIR, assetDir, assetFiles, VAULT_FORMAT, VAULT_MARKER, VAULT_MARKER_TEXT } from './vaultFormat.ts';

export interface VaultExportProgress {
  readonly exported: number;
  /** Assets in the library when the export began. */
  readonly total: number;
}

export interface VaultExportOptions {
  readonly signal?: AbortSignal | undefined;
  readonly onProgress?: ((progress: VaultExportProgress) => void) | undefined;
}

export interface VaultExportSummary extends VaultExportProgress {
  /** Folders of an earlier export whose assets are no longer in the library. */
  readonly removed: number;
  readonly cancelled: boolean;
  readonly elapsedMs: number;
}

/** The format of the vault at `dir`, or undefined when `dir` holds no satchel.json. */
export function vaultFormatAt(dir: string): number | undefined {
  const marker = join(dir, VAULT_MARKER);
  if (!existsSync(marker)) return undefined;
  try {
    const parsed: unknown = JSON.parse(readFileSync(marker, 'utf8'));
    const format = typeof parsed === 'object' && parsed !== null && 'format' in parsed ? parsed.format : undefined;
    return typeof format === 'number' ? format : 0;
  } catch {
    return 0;
  }
}

/** Writes every record `pages` names into `dir`. */
export async function exportVault(
  dir: string,
  records: LibraryRecords,
  pages: Iterable<readonly string[]>,
  total: number,
  options: VaultExportOptions = {},
): Promise<VaultExportSummary> {
  const started = performance.now();
  const existing = prepareDirectory(dir);
  const written = new Set<string>();
  let exported = 0;
  let cancelled = false;
  for (const ids of pages) {
    if (options.signal?.aborted) {
      cancelled = true;
      break;
    }
    for (const id of ids) {
      const record = records.read(id);
      if (record === undefined) continue;
      const folder = assetDir(id);
      const path = join(dir, ...folder.split('/'));
      // A folder's files are replaced whole: a changed language renames its code file.
      if (existing) rmSync(path, { recursive: true, force: true });
      mkdirSync(path, { recursive: true });
      for (const file of assetFiles(record)) writeFileSync(join(path, file.name), file.data);
      written.add(folder);
      exported++;
    }
    options.onProgress?.({ exported, total });
    await new Promise((resolve) => setImmediate(resolve));
  }
  const removed = existing && !cancelled ? removeOthers(dir, written) : 0;
  return { exported, total, removed, cancelled, elapsedMs: Math.round(performance.now() - started) };
}

/** Makes `dir` ready; true when it already held a vault (whose stale folders are removed after). */
function prepareDirectory(dir: string): boolean {
  const format = vaultFormatAt(dir);
  if (format !== undefined && format > VAULT_FORMAT) {
    throw new InvalidInputError(`${dir} holds a vault of format ${format}, written by a newer Satchel; it was left as it is`);
  }
  if (format === undefined && existsSync(dir) && readdirSync(dir).length > 0) {
    throw new InvalidInputError(`${dir} is not empty and is not a Satchel vault; name a new or empty directory`);
  }
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, VAULT_MARKER), VAULT_MARKER_TEXT);
  return format !== undefined;
}

function removeOthers(dir: string, written: ReadonlySet<string>): number {
  const root = join(dir, ASSETS_DIR);
  if (!existsSync(root)) return 0;
  let removed = 0;
  for (const shard of readdirSync(root)) {
    const shardPath = join(root, shard);
    for (const entry of readdirSync(shardPath)) {
      if (written.has(`${ASSETS_DIR}/${shard}/${entry}`)) continue;
      rmSync(join(shardPath, entry), { recursive: true, force: true });
      removed++;
    }
    if (readdirSync(shardPath).length === 0) rmSync(shardPath, { recursive: true, force: true });
  }
  return removed;
}
