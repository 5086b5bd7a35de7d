/**
 * `satchel export --vault DIR`: the library written as a plain-file vault (vaultFormat.ts). A new
 * or empty directory gets the vault; an existing vault is brought up to date (folders of assets no
 * longer in the library removed); any other non-empty directory is refused, nothing written.
 * Records are read a page at a time with a turn of the event loop between pages; progress is
 * reported and a cancel stops between pages (what was written stays, and the summary says so).
 * With `secrets` (the default of `satchel export`), each value the detector finds is written as its
 * placeholder (issue 32); the user asks for values with --include-secrets.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InvalidInputError } from '../errors.ts';
import type { LibraryRecords } from './libraryRecords.ts';
import { hiddenWebsites, type DoorSecrets } from '../secrets/doorSecrets.ts';
import { redactRecord, textsOfRecord } from './secretGuard.ts';
import { redactConversation } from './conversationGuard.ts';
import { ASSETS_DIR, assetDir, assetFiles, VAULT_ATTRIBUTES, VAULT_ATTRIBUTES_TEXT, VAULT_FORMAT, VAULT_MARKER, VAULT_MARKER_TEXT, type VaultFile } from './vaultFormat.ts';
import { CONVERSATIONS_DIR, conversationDir, conversationFiles, type VaultConversation } from './vaultConversations.ts';

export interface VaultExportProgress {
  readonly exported: number;
  /** Assets in the library when the export began. */
  readonly total: number;
}

/** The conversations an export writes beside the assets. */
export interface ConversationSource {
  ids(): string[];
  read(id: string): VaultConversation | undefined;
}

export interface VaultExportOptions {
  readonly signal?: AbortSignal | undefined;
  readonly conversations?: ConversationSource | undefined;
  readonly onProgress?: ((progress: VaultExportProgress) => void) | undefined;
  /** Writes each value the detector finds as its placeholder; absent, the snippets are written as they are. */
  readonly secrets?: DoorSecrets | undefined;
}

export interface VaultExportSummary extends VaultExportProgress {
  readonly conversations: number;
  /** Folders of an earlier export whose assets are no longer in the library. */
  readonly removed: number;
  /** Snippets written with their secrets replaced by placeholders. */
  readonly redacted: number;
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
  let redacted = 0;
  let cancelled = false;
  for (const ids of pages) {
    if (options.signal?.aborted) {
      cancelled = true;
      break;
    }
    for (const id of ids) {
      let record = records.read(id);
      if (record === undefined) continue;
      if (options.secrets !== undefined) {
        const hidden = redactRecord(record, await options.secrets.findingsIn(textsOfRecord(record), id));
        const websites = await hiddenWebsites(record.websites, options.secrets);
        const sitesHidden = websites !== record.websites;
        record = sitesHidden ? { ...hidden.record, websites } : hidden.record;
        if (hidden.redacted || sitesHidden) redacted++;
      }
      writeFolder(dir, assetDir(id), assetFiles(record), existing);
      written.add(assetDir(id));
      exported++;
    }
    options.onProgress?.({ exported, total });
    await new Promise((resolve) => setImmediate(resolve));
  }
  let conversations = 0;
  for (const id of cancelled ? [] : (options.conversations?.ids() ?? [])) {
    if (options.signal?.aborted) {
      cancelled = true;
      break;
    }
    let conversation = options.conversations!.read(id);
    if (conversation === undefined) continue;
    if (options.secrets !== undefined) conversation = (await redactConversation(conversation, options.secrets)).redacted;
    writeFolder(dir, conversationDir(id), conversationFiles(conversation), existing);
    written.add(conversationDir(id));
    conversations++;
  }
  const removed = existing && !cancelled ? removeOthers(dir, ASSETS_DIR, written) + (options.conversations ? removeOthers(dir, CONVERSATIONS_DIR, written) : 0) : 0;
  return { exported, total, conversations, removed, redacted, cancelled, elapsedMs: Math.round(performance.now() - started) };
}

/** Writes a record's folder; an existing one is replaced whole (a changed language renames its code file). */
function writeFolder(dir: string, folder: string, files: readonly VaultFile[], replace: boolean): void {
  const path = join(dir, ...folder.split('/'));
  if (replace) rmSync(path, { recursive: true, force: true });
  mkdirSync(path, { recursive: true });
  for (const file of files) writeFileSync(join(path, file.name), file.data);
}

/** Makes `dir` ready; true when it already held a vault (whose stale folders are removed after). */
function prepareDirectory(dir: string): boolean {
  const format = vaultFormatAt(dir);
  if (format !== undefined && format > VAULT_FORMAT) {
    throw new InvalidInputError(`${dir} holds a vault of format ${format}, written by a newer Satchel; it was left as it is`);
  }
  // A git work tree made for the vault (only `.git`) or a folder with only a file manager's notes is empty.
  if (format === undefined && existsSync(dir) && readdirSync(dir).some((name) => !IGNORED.has(name))) {
    throw new InvalidInputError(`${dir} is not empty and is not a Satchel vault; name a new or empty directory`);
  }
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, VAULT_MARKER), VAULT_MARKER_TEXT);
  if (!existsSync(join(dir, VAULT_ATTRIBUTES))) writeFileSync(join(dir, VAULT_ATTRIBUTES), VAULT_ATTRIBUTES_TEXT);
  return format !== undefined;
}

/** What a directory may hold and still be taken as empty: a git work tree's own folder, and what file managers leave. */
const IGNORED = new Set(['.git', '.DS_Store', 'Thumbs.db', 'desktop.ini']);

/** Folders of records no longer in the library; files (a file manager's `.DS_Store`) are not records and are left. */
function removeOthers(dir: string, kind: string, written: ReadonlySet<string>): number {
  const root = join(dir, kind);
  if (!existsSync(root)) return 0;
  let removed = 0;
  for (const shard of folders(root)) {
    const shardPath = join(root, shard);
    for (const entry of folders(shardPath)) {
      if (written.has(`${kind}/${shard}/${entry}`)) continue;
      rmSync(join(shardPath, entry), { recursive: true, force: true });
      removed++;
    }
    if (readdirSync(shardPath).length === 0) rmSync(shardPath, { recursive: true, force: true });
  }
  return removed;
}

function folders(path: string): string[] {
  return readdirSync(path, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? [entry.name] : []));
}
