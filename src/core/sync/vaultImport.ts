/**
 * A Satchel vault (vaultFormat.ts) read for the import pipeline: each shard folder becomes one
 * parsed file of records, so an import of a vault runs as any import does (batches, limits,
 * progress, cancel, a revision by the import for each asset it creates or changes) and keeps every
 * asset's id, times, websites and favorite. A folder that does not make a record fails alone.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { InvalidInputError } from '../errors.ts';
import { SnippetCollector, type ParsedFile } from '../import/types.ts';
import { importedOf } from './libraryRecords.ts';
import { ASSETS_DIR, idOfSegment, parseAsset, VAULT_FORMAT, VaultFormatError, type VaultAsset, type VaultFile } from './vaultFormat.ts';
import { vaultFormatAt } from './vaultExport.ts';
import { CONVERSATIONS_DIR, parseConversation, type VaultConversation } from './vaultConversations.ts';

/** Conversations per part (a part is one request to a host). */
const CONVERSATIONS_PER_PART = 500;

/** Whether `dir` is a Satchel vault (it holds satchel.json). */
export function isSatchelVault(dir: string): boolean {
  return vaultFormatAt(dir) !== undefined;
}

/** The shard folders of the vault at `dir`, each read (when asked) into a parsed file of records. */
export function vaultParts(dir: string): Array<{ readonly name: string; read(): ParsedFile }> {
  const format = vaultFormatAt(dir);
  if (format === undefined) throw new InvalidInputError(`${dir} is not a Satchel vault (no satchel.json)`);
  if (format > VAULT_FORMAT) throw new InvalidInputError(`${dir} is a vault of format ${format}, written by a newer Satchel; update Satchel to import it`);
  const root = join(dir, ASSETS_DIR);
  const shards = subfolders(root);
  const parts = shards.map((shard) => ({ name: join(root, shard), read: () => readShard(join(root, shard)) }));
  // Conversations come after every snippet they may link to.
  const folders = conversationFolders(join(dir, CONVERSATIONS_DIR));
  for (let at = 0; at < folders.length; at += CONVERSATIONS_PER_PART) {
    const chunk = folders.slice(at, at + CONVERSATIONS_PER_PART);
    parts.push({ name: join(dir, CONVERSATIONS_DIR), read: () => readConversations(join(dir, CONVERSATIONS_DIR), chunk) });
  }
  return parts;
}

function subfolders(path: string): string[] {
  try {
    return readdirSync(path, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
  } catch {
    return [];
  }
}

function conversationFolders(root: string): string[] {
  return subfolders(root).flatMap((shard) => subfolders(join(root, shard)).map((entry) => join(shard, entry)));
}

function readConversations(root: string, folders: readonly string[]): ParsedFile {
  const collector = new SnippetCollector(root);
  const conversations: VaultConversation[] = [];
  for (const folder of folders) {
    const path = join(root, folder);
    try {
      const files: VaultFile[] = readdirSync(path, { withFileTypes: true })
        .filter((file) => file.isFile())
        .map((file) => ({ name: file.name, data: readFileSync(join(path, file.name)) }));
      conversations.push(parseConversation(idOfSegment(folder.split(/[\\/]/).pop()!), files));
    } catch (error) {
      collector.fail(folder, error instanceof VaultFormatError ? error.message : `cannot read it: ${(error as Error).message}`);
    }
  }
  return { ...collector.result('vault'), conversations };
}

function readShard(path: string): ParsedFile {
  const collector = new SnippetCollector(path);
  for (const entry of readdirSync(path, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (!entry.isDirectory()) continue;
    const id = idOfSegment(entry.name);
    let record: VaultAsset;
    try {
      const folder = join(path, entry.name);
      const files: VaultFile[] = readdirSync(folder, { withFileTypes: true })
        .filter((file) => file.isFile())
        .map((file) => ({ name: file.name, data: readFileSync(join(folder, file.name)) }));
      record = parseAsset(id, files);
    } catch (error) {
      if (error instanceof VaultFormatError) collector.fail(entry.name, error.message);
      else collector.fail(entry.name, `cannot read it: ${(error as Error).message}`);
      continue;
    }
    collector.add(entry.name, importedOf(record));
  }
  return collector.result('vault');
}

