/**
 * The library's records read through a second connection to a store another process keeps open
 * (a running host): SQLite's WAL lets it read while the host writes, and it writes nothing. The
 * schema must be the one this Satchel knows (a host of another version is refused, as the import
 * process refuses it).
 */
import { join } from 'node:path';
import { existsSync } from 'node:fs';
import { Database, DATABASE_FILE } from '../store/database.ts';
import { StoreContext, silentLogger } from '../context.ts';
import { AssetStore } from '../assets/assetStore.ts';
import { Labels } from '../assets/labels.ts';
import { Descriptions } from '../assets/descriptions.ts';
import { StoreUnusableError } from '../errors.ts';
import type { Disposable } from '../lifecycle.ts';
import { LibraryRecords } from './libraryRecords.ts';
import { ConversationRecords } from './conversationRecords.ts';

export interface LibraryReader extends Disposable {
  readonly records: LibraryRecords;
  readonly conversations: ConversationRecords;
  /** Ids of the ordinary assets, a page at a time. */
  pages(): Iterable<string[]>;
  /** How many ordinary assets there are. */
  count(): number;
}

/** What the records of a store are read through, given its context (the store's own, or a second connection's). */
export function readerOf(context: StoreContext, dispose: () => void = () => undefined): LibraryReader {
  const store = new AssetStore(context);
  const records = new LibraryRecords({ database: context.database, store, labels: new Labels(context), descriptions: new Descriptions(context) });
  return {
    records,
    conversations: new ConversationRecords(context, (id) => store.exists(id)),
    pages: () => store.listing.identifierPages(),
    count: () => store.listing.ordinaryCount(),
    dispose,
  };
}

/** Opens the store of `dataDir` for reading beside the process that keeps it, at schema `version`. */
export function openSharedReader(dataDir: string, version: number): LibraryReader {
  const path = join(dataDir, DATABASE_FILE);
  if (!existsSync(path)) throw new StoreUnusableError(`${dataDir} holds no Satchel store`);
  const context = new StoreContext(Database.openShared(path, version), silentLogger);
  return readerOf(context, () => context.dispose());
}
