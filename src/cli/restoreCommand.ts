/**
 * `satchel restore FILE`: puts a backup back as the data directory's store (core/backups/restore.ts
 * checks it first and keeps the store it replaces). Refused while a host serves the directory: the
 * command holds the host lock throughout, so no host can open the store half-way. Without FILE it
 * lists the copies in the backups folder.
 */
import { parseArgs } from 'node:util';
import { join } from 'node:path';
import { HostLock } from '../core/store/hostLock.ts';
import { defaultDataDir } from '../core/dataDir.ts';
import { allMigrations } from '../core/satchel.ts';
import { restoreStore } from '../core/backups/restore.ts';
import { backupsDir, DEFAULT_KEEP, listBackups } from '../core/backups/backupFiles.ts';
import { readPortFile } from '../hosting/portFile.ts';
import { contents, keepOption } from './backupText.ts';
import { mib } from '../core/byteSizes.ts';

const USAGE = `Usage: satchel restore [--data-dir DIR] [--keep-backups N] FILE
  Puts a backup back as the store of DIR after checking it: a damaged file, another program's
  database or one from a newer Satchel is refused. The store it replaces is kept in DIR/backups/.
  FILE is a path or the name of a copy in DIR/backups/; without FILE those copies are listed.
  Satchel must not be serving DIR: close the VS Code windows that use it and stop \`satchel\`.`;

export async function runRestoreCommand(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...args],
    allowPositionals: true,
    options: { 'data-dir': { type: 'string' }, 'keep-backups': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  const dataDir = values['data-dir'] ?? defaultDataDir();
  if (values.help || positionals.length > 1) {
    console.log(USAGE);
    return values.help ? 0 : 2;
  }
  const file = positionals[0];
  if (file === undefined) {
    printBackups(dataDir);
    return 0;
  }
  const keep = keepOption(values['keep-backups']) ?? DEFAULT_KEEP;
  const lock = HostLock.tryAcquire(dataDir);
  if (!lock) {
    const port = readPortFile(dataDir)?.port;
    console.error(
      `A Satchel host serves ${dataDir}${port !== undefined ? ` on port ${port}` : ''}; nothing was restored.\n` +
        'Stop it first (close the VS Code windows that use this data directory and stop `satchel`), then run the restore again.',
    );
    return 1;
  }
  try {
    const restored = await restoreStore({ dataDir, file, migrations: allMigrations, keep });
    const latest = Math.max(...allMigrations.map((migration) => migration.version));
    console.log(
      `Restored ${restored.file} (taken ${readable(restored.taken)}): ${contents(restored.summary)}` +
        (restored.summary.lastChange ? `, the newest changed ${readable(restored.summary.lastChange)}` : '') +
        '.' +
        (restored.summary.schemaVersion < latest ? '\n  It was written by an older Satchel; the next start upgrades it (after backing it up).' : '') +
        (restored.previous ? `\n  The store it replaced is kept as ${join(backupsDir(dataDir), restored.previous)}.` : ''),
    );
    return 0;
  } finally {
    lock.dispose();
  }
}

function printBackups(dataDir: string): void {
  const backups = listBackups(dataDir);
  if (backups.length === 0) {
    console.log(`No backups in ${backupsDir(dataDir)}.\n\n${USAGE}`);
    return;
  }
  console.log(`Backups in ${backupsDir(dataDir)}, newest first:`);
  for (const backup of backups) console.log(`  ${backup.name}  ${mib(backup.bytes)} MB  (${backup.reason}, ${readable(backup.taken.toISOString())})`);
  console.log('\nRestore one with: satchel restore NAME');
}

/** "2026-05-01 10:20:30 UTC". */
function readable(iso: string): string {
  return `${iso.slice(0, 19).replace('T', ' ')} UTC`;
}
