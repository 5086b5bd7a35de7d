/**
 * `satchel backup [FILE]`: a consistent copy of the store, taken while it is in use. When a host
 * serves the data directory the copy is its to take (POST /satchel/backup): it writes it into the
 * directory's backups folder, under a name it chooses, and this command copies it to FILE. Otherwise
 * the command takes the host lock itself (a host starting meanwhile waits) and copies the store as
 * it is. Ctrl-C cancels; the partial copy is removed.
 */
import { parseArgs } from 'node:util';
import { constants, copyFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { defaultDataDir } from '../core/dataDir.ts';
import { backupStoreAt, type BackupOptions } from '../core/backups/backups.ts';
import { backupsDir, DEFAULT_KEEP } from '../core/backups/backupFiles.ts';
import type { CopyProgress } from '../core/backups/storeCopy.ts';
import type { BackupReply } from '../wire/backups.ts';
import { directOrThroughHost } from './hostAddress.ts';
import { bar, ProgressLine } from './progressBar.ts';
import { cancelOnInterrupt } from './interrupt.ts';
import { contents, keepOption } from './backupText.ts';
import { mib } from '../core/byteSizes.ts';

const USAGE = `Usage: satchel backup [--data-dir DIR] [--keep-backups N] [FILE]
  Copies the store into DIR/backups/ (the newest N copies taken this way are kept, ${DEFAULT_KEEP} unless
  a host or --keep-backups says otherwise) and, given FILE, to FILE too. Works while Satchel runs.
  Put a copy back with: satchel restore FILE`;

export async function runBackupCommand(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...args],
    allowPositionals: true,
    options: { 'data-dir': { type: 'string' }, 'keep-backups': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help || positionals.length > 1) {
    console.log(USAGE);
    return values.help ? 0 : 2;
  }
  const dataDir = values['data-dir'] ?? defaultDataDir();
  const keep = keepOption(values['keep-backups']);
  const target = positionals[0] !== undefined ? resolve(positionals[0]) : undefined;
  if (target !== undefined && existsSync(target)) throw new Error(`${target} already exists; name a new file.`);

  const interrupt = cancelOnInterrupt('Cancelling the backup');
  const line = new ProgressLine();
  const options: BackupOptions = { signal: interrupt.signal, onProgress: (progress) => line.show(() => progressText(progress)) };
  let backup: BackupReply;
  try {
    backup = await backupOf(dataDir, keep, options);
  } catch (error) {
    if (interrupt.signal.aborted) {
      line.done();
      console.log('Cancelled: no backup was written.');
      return 130;
    }
    throw error;
  } finally {
    line.done();
    interrupt.dispose();
  }
  const kept = join(backupsDir(dataDir), backup.name);
  if (target !== undefined) copyFileSync(kept, target, constants.COPYFILE_EXCL);
  console.log(
    `Backed up ${contents(backup.summary)} (${mib(backup.bytes)} MB, ${(backup.elapsedMs / 1000).toFixed(1)} s) to ${target ?? kept}` +
      (target !== undefined ? `\n  (also kept as ${kept})` : ''),
  );
  return 0;
}

function backupOf(dataDir: string, keep: number | undefined, options: BackupOptions): Promise<BackupReply> {
  return directOrThroughHost(dataDir, {
    direct: async () => {
      const { path: _path, ...backup } = await backupStoreAt(dataDir, keep ?? DEFAULT_KEEP, options);
      return backup;
    },
    throughHost: (client) => {
      if (keep !== undefined) process.stderr.write('(--keep-backups is the host\'s to decide while it runs; it was ignored.)\n');
      return client.backups.create(options);
    },
    directNote: 'copying its store directly',
    hostNote: 'Backing up',
  });
}

function progressText(progress: CopyProgress): string {
  const share = progress.bytesTotal > 0 ? progress.bytesDone / progress.bytesTotal : 0;
  return `${bar(share)} ${Math.round(share * 100)}% · ${mib(progress.bytesDone)}/${mib(progress.bytesTotal)} MB`;
}
