/**
 * `satchel export --vault DIR`: the library written as a plain-file vault (docs/sync.md). When a
 * host serves the data directory the records are read beside it through a second, read-only use of
 * the store (SQLite's WAL lets both run); otherwise the command takes the host lock (a host starting
 * meanwhile waits) and opens the store itself. Ctrl-C stops between pages; what was written stays.
 */
import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { HostLock } from '../core/store/hostLock.ts';
import { Satchel, allMigrations } from '../core/satchel.ts';
import { defaultDataDir } from '../core/dataDir.ts';
import { exportVault, type VaultExportOptions, type VaultExportSummary } from '../core/sync/vaultExport.ts';
import { openSharedReader, readerOf, type LibraryReader } from '../core/sync/libraryReader.ts';
import { bar, ProgressLine } from './progressBar.ts';
import { cancelOnInterrupt } from './interrupt.ts';
import type { DoorSecrets } from '../core/secrets/doorSecrets.ts';
import { ScanningDoorSecrets } from '../core/secrets/scanningDoors.ts';
import { SecretScanner } from '../core/secrets/secretScanner.ts';
import { countText } from '../core/countText.ts';

const USAGE = `Usage: satchel export --vault DIR [--include-secrets] [--data-dir DIR]
  Writes the library as a plain-file vault: one folder per snippet (assets/<shard>/<id>/),
  its code in code.<language> and its name, tags, websites, times and description in snippet.md;
  conversations likewise (conversations/<shard>/<id>/, a file per message).
  A key, token, password or private key in a snippet is written as a placeholder
  («secret: AWS secret access key»); --include-secrets writes the values.
  DIR must be new, empty, or a vault written before (it is brought up to date).
  Import it again with: satchel import DIR`;

export async function runExportCommand(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...args],
    allowPositionals: true,
    options: { 'data-dir': { type: 'string' }, vault: { type: 'string' }, 'include-secrets': { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help || values.vault === undefined || positionals.length > 0) {
    console.log(USAGE);
    return values.help ? 0 : 2;
  }
  const dataDir = values['data-dir'] ?? defaultDataDir();
  const target = resolve(values.vault);
  const interrupt = cancelOnInterrupt('Cancelling the export');
  const line = new ProgressLine();
  const options: VaultExportOptions = {
    signal: interrupt.signal,
    onProgress: (p) => line.show(() => `${bar(p.total > 0 ? p.exported / p.total : 1)} ${p.exported}/${p.total} snippets`),
  };
  let summary: VaultExportSummary;
  try {
    const include = values['include-secrets'] === true;
    summary = await withReader(dataDir, (reader, secrets) =>
      exportVault(target, reader.records, reader.pages(), reader.count(), { ...options, conversations: reader.conversations, ...(include ? {} : { secrets }) }),
    );
  } finally {
    line.done();
    interrupt.dispose();
  }
  console.log(
    `${summary.cancelled ? 'Cancelled: ' : ''}exported ${countText(summary.exported)} of ${countText(summary.total)} snippets` +
      (summary.conversations > 0 ? ` and ${countText(summary.conversations)} conversations` : '') +
      ` to ${target}` +
      (summary.removed > 0 ? `, removed ${summary.removed} no longer in the library` : '') +
      ` (${(summary.elapsedMs / 1000).toFixed(1)} s).`,
  );
  if (summary.redacted > 0) {
    console.log(`${countText(summary.redacted)} snippet${summary.redacted === 1 ? ' holds a secret: it was' : 's hold secrets: they were'} written with placeholders (--include-secrets writes the values).`);
  }
  return summary.cancelled ? 130 : 0;
}

async function withReader<T>(dataDir: string, use: (reader: LibraryReader, secrets: DoorSecrets) => Promise<T>): Promise<T> {
  const lock = HostLock.tryAcquire(dataDir);
  if (!lock) {
    process.stderr.write(`Reading ${dataDir} beside the Satchel host that serves it.\n`);
    const reader = openSharedReader(dataDir, Math.max(...allMigrations.map((migration) => migration.version)));
    // Beside the host, each snippet is scanned as it is written.
    const secrets = new ScanningDoorSecrets(new SecretScanner());
    try {
      return await use(reader, secrets);
    } finally {
      secrets.dispose();
      reader.dispose();
    }
  }
  try {
    const core = Satchel.open({ dataDir, importWorker: false });
    try {
      return await use(readerOf(core.context), core.doorSecrets());
    } finally {
      await core.close();
    }
  } finally {
    lock.dispose();
  }
}
