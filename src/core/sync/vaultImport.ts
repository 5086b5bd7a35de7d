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
import { exactRecordOf, recordLanguage } from './libraryRecords.ts';
import { ASSETS_DIR, idOfSegment, parseAsset, VAULT_FORMAT, VaultFormatError, type VaultAsset, type VaultFile } from './vaultFormat.ts';
import { vaultFormatAt } from './vaultExport.ts';

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
  let shards: string[];
  try {
    shards = readdirSync(root, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
  } catch {
    return [];
  }
  return shards.map((shard) => ({ name: join(root, shard), read: () => readShard(join(root, shard)) }));
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

/** A record as the import pipeline takes it. */
export function importedOf(record: VaultAsset): Parameters<SnippetCollector['add']>[1] {
  return {
    name: record.name,
    text: typeof record.content === 'string' ? record.content : '',
    language: recordLanguage(record.language),
    tags: record.tags,
    description: record.description,
    syntax: record.syntax,
    prefixes: record.prefixes,
    record: exactRecordOf(record),
  };
}
