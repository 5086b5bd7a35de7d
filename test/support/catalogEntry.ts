/** A catalog entry for a generated GGUF served by a test FileServer. */
import type { CatalogEntry } from '../../src/core/models/catalog.ts';
import type { FileServer } from './fileServer.ts';

export function servedEntry(files: FileServer, id: string, file: string, usage: CatalogEntry['usage']): CatalogEntry {
  return { id, unique: file, name: file, version: '1', foundation: 'UNKNOWN', usage, type: 'SPEED', url: files.url(file), file, license: 'MIT' };
}
