/**
 * node:sqlite, loaded when a store or host lock first opens rather than when a bundle loads. Desktop
 * VS Code runs extensions on Electron's Node, and some Electron releases were built without
 * node:sqlite: a static import would make the whole extension fail to load with no word to the
 * user, while this way activation succeeds and the failure is one typed error we can explain.
 */
import type * as Sqlite from 'node:sqlite';
import { SqliteUnavailableError } from '../errors.ts';

export type SqliteModule = typeof Sqlite;
/** Returns the module, or undefined when this runtime has none. */
export type SqliteLoader = () => SqliteModule | undefined;

const builtin: SqliteLoader = () => process.getBuiltinModule?.('node:sqlite') as SqliteModule | undefined;

let loader: SqliteLoader = builtin;
let loaded: SqliteModule | undefined;

/** node:sqlite; throws SqliteUnavailableError when this runtime lacks it. */
export function sqlite(): SqliteModule {
  if (loaded) return loaded;
  let module: SqliteModule | undefined;
  try {
    module = loader();
  } catch {
    module = undefined;
  }
  if (!module?.DatabaseSync) {
    const electron = process.versions.electron ? `, Electron ${process.versions.electron}` : '';
    throw new SqliteUnavailableError(`This Node.js runtime (${process.version}${electron}) has no SQLite module (node:sqlite), which Satchel stores its data with.`);
  }
  loaded = module;
  return module;
}

/** Test seam: simulate a runtime without node:sqlite (or restore the real one with no argument). */
export function setSqliteLoaderForTests(next: SqliteLoader = builtin): void {
  loader = next;
  loaded = undefined;
}
