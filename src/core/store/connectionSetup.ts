/**
 * What every connection to a store is set up with, and how a failed set-up is reported: the store's
 * first connection (Database.open) and a second one (Database.openShared, the import process's)
 * share both, so a connection can never be durable in one and not the other.
 */
import type { DatabaseSync } from 'node:sqlite';
import { StoreUnusableError } from '../errors.ts';

/** Every acknowledged write survives a crash (synchronous=FULL); links between tables are kept. */
export function makeDurable(db: DatabaseSync): void {
  db.exec('PRAGMA synchronous = FULL');
  db.exec('PRAGMA foreign_keys = ON');
}

/**
 * Runs `setup` on a fresh connection; if it throws, closes the connection and throws a
 * StoreUnusableError: `explain`'s when it gives one (a full disk), the error itself when it is one,
 * else one naming the store.
 */
export function setUpConnection(db: DatabaseSync, path: string, setup: () => void, explain?: () => StoreUnusableError | undefined): void {
  try {
    setup();
  } catch (error) {
    db.close();
    const explained = explain?.();
    if (explained) throw explained;
    if (error instanceof StoreUnusableError) throw error;
    throw new StoreUnusableError(`Cannot use the database ${path}: ${(error as Error).message}`);
  }
}
