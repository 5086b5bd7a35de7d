/**
 * What every area service is built on: the database, generic records and links, and the change
 * feed. Services publish changes through `publish`, which holds them until the surrounding
 * transaction commits.
 */
import { Database } from './store/database.ts';
import type { Migration } from './store/migrations.ts';
import type { StatisticsRefresh } from './store/planStatistics.ts';
import { Records } from './store/records.ts';
import { Links } from './store/links.ts';
import { Emitter, type ChangeEvent, type Disposable } from './events.ts';
import { DEFAULT_KEEP } from './backups/backupFiles.ts';
import { BulkWork } from './bulkWork.ts';

export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string, error?: unknown): void;
}

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };

export class StoreContext implements Disposable {
  readonly database: Database;
  readonly records: Records;
  readonly links: Links;
  readonly logger: Logger;
  private readonly changes = new Emitter<ChangeEvent>();
  /** Fires once per committed change, after its transaction committed. */
  readonly onDidChange = this.changes.event;
  /** Syncs, import sessions, back-fills and compactions under way (bulkWork.ts). */
  readonly bulkWork = new BulkWork();

  constructor(database: Database, logger: Logger) {
    this.database = database;
    this.records = new Records(database);
    this.links = new Links(database);
    this.logger = logger;
  }

  /** `keepBackups`: copies kept of each kind of backup (0: no automatic ones). */
  static open(dataDir: string, migrations: readonly Migration[], logger: Logger = silentLogger, keepBackups = DEFAULT_KEEP): StoreContext {
    const migrationBackup = { keep: keepBackups, taken: (name: string) => logger.info(`Backed up the store before upgrading it: backups/${name}`) };
    const statisticsRefreshed = (refresh: StatisticsRefresh): void => {
      const tables = refresh.analyzed.map((t) => `${t.table} ${Math.round(t.ms)} ms`).join(', ');
      if (refresh.failure === undefined) logger.info(`Refreshed the query planner's statistics in ${Math.round(refresh.ms)} ms: ${tables}`);
      else logger.warn(`The query planner's statistics were not all refreshed (${refresh.failure})${tables ? `; analyzed: ${tables}` : ''}`);
    };
    const checkpointsFellBack = (reason: string): void => logger.warn(`WAL checkpoints run inside commits from now on (${reason}).`);
    return new StoreContext(Database.open({ dataDir, migrations, migrationBackup, statisticsRefreshed, checkpointsFellBack }), logger);
  }

  /** Announces a change once the current transaction (if any) has committed. */
  publish(change: ChangeEvent): void {
    this.database.onCommit(() => this.changes.fire(change));
  }

  transaction<T>(fn: () => T): T {
    return this.database.transaction(fn);
  }

  /** A transaction whose COMMIT is shared with concurrent writes (see Database.groupTransaction). */
  groupTransaction<T>(fn: () => T): Promise<T> {
    return this.database.groupTransaction(fn);
  }

  /** Resolves once another connection's write is done (see Database.writeLockReady); call before each of a long run of transactions. */
  writeLockReady(): Promise<void> {
    return this.database.writeLockReady();
  }

  /** Bookkeeping that is not acknowledged as a saved write (see Database.unsyncedTransaction). */
  unsyncedTransaction<T>(fn: () => T): T {
    return this.database.unsyncedTransaction(fn);
  }

  dispose(): void {
    this.changes.dispose();
    this.bulkWork.dispose();
    this.database.close();
  }
}
