/**
 * What an import of a path reads: a Satchel vault's shard folders, the records of a folder Pieces'
 * export tool wrote (piecesArchive.ts), a massCode Markdown vault's folders, or the snippet files
 * of a file or folder (files.ts). Each is read only when the import gets to it.
 */
import { listImportFiles } from './files.ts';
import { massCodeVaultParts, massCodeVaultRoot } from './massCodeVault.ts';
import { isSatchelVault, vaultParts } from '../sync/vaultImport.ts';
import type { ParsedFile } from './types.ts';
import { piecesArchiveParts, piecesArchiveRecords } from './piecesArchive.ts';
import { diskArchive } from './piecesArchiveDisk.ts';

export type ImportInput =
  /** A snippet file, read as text. */
  | { readonly name: string; readonly path: string }
  /** A vault's folder (or a part of a Pieces export-tool archive), read into snippets on this side. */
  | { readonly name: string; read(): ParsedFile | Promise<ParsedFile> };

export async function importInputs(path: string): Promise<ImportInput[]> {
  if (isSatchelVault(path)) return vaultParts(path);
  const archive = diskArchive(path);
  if ((await piecesArchiveRecords(archive)) !== undefined) return piecesArchiveParts(archive);
  const massCode = massCodeVaultRoot(path);
  if (massCode !== undefined) return massCodeVaultParts(massCode);
  return (await listImportFiles(path)).map((file) => ({ name: file, path: file }));
}
