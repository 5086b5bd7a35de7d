/**
 * `satchel sync [--remote URL]`: syncs the library with a git remote through the user's git
 * (docs/sync.md). The first call with --remote sets it (kept in the store; a new one starts over).
 * When a host serves the data directory the sync is the host's (POST /satchel/sync), so its views
 * see what arrives; otherwise the command takes the host lock and syncs the store itself. Ctrl-C
 * cancels before the push (after it, the sync finishes: the remote already has it).
 */
import { parseArgs } from 'node:util';
import { Satchel } from '../core/satchel.ts';
import { defaultDataDir } from '../core/dataDir.ts';
import type { SyncOptions, SyncProgress, SyncSummary } from '../core/sync/syncEngine.ts';
import { DEFAULT_MAX_DELETE_PERCENT, validDeletePercent } from '../core/sync/massDelete.ts';
import type { SyncStatus } from '../core/sync/syncService.ts';
import { backupText, noticeText, secretsText } from '../core/sync/syncNotices.ts';
import { absoluteRemote } from '../core/sync/remoteIdentity.ts';
import type { SatchelClient } from '../client/satchelClient.ts';
import { authorOf } from '../core/history/authors.ts';
import { directOrThroughHost } from './hostAddress.ts';
import { bar, ProgressLine } from './progressBar.ts';
import { cancelOnInterrupt } from './interrupt.ts';

const USAGE = `Usage: satchel sync [--data-dir DIR] [--remote URL] [--branch NAME] [--confirm-deletes] [--max-delete-percent N]
       satchel sync --status [--data-dir DIR]
  Syncs the library with a git repository through your own git (SSH, HTTPS with your credential
  helper, or a path to a bare repository). --remote sets the repository the first time (and
  changes it later: a new remote starts over). A sync that would delete more than N% of the
  library (default ${DEFAULT_MAX_DELETE_PERCENT}; 0-100) stops; --confirm-deletes lets it go ahead.`;

const PHASES: Record<SyncProgress['phase'], string> = {
  reading: 'reading changes',
  fetching: 'fetching',
  fetched: 'fetched',
  scanning: 'checking snippets for secrets',
  merging: 'merging',
  committed: 'committed',
  pushing: 'pushing',
  pushed: 'pushed',
  applying: 'applying',
  done: 'done',
};

export async function runSyncCommand(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...args],
    allowPositionals: true,
    options: {
      'data-dir': { type: 'string' },
      remote: { type: 'string' },
      branch: { type: 'string' },
      'confirm-deletes': { type: 'boolean' },
      'max-delete-percent': { type: 'string' },
      status: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help || positionals.length > 0) {
    console.log(USAGE);
    return values.help ? 0 : 2;
  }
  const percent = values['max-delete-percent'] === undefined ? undefined : Number(values['max-delete-percent']);
  if (percent !== undefined && (values['max-delete-percent']!.trim() === '' || !validDeletePercent(percent))) {
    console.error(`--max-delete-percent takes a percentage from 0 to 100, not ${JSON.stringify(values['max-delete-percent'])}`);
    return 2;
  }
  const dataDir = values['data-dir'] ?? defaultDataDir();
  // A relative path names a folder from here, not from where a host was started.
  const remote = values.remote === undefined ? undefined : absoluteRemote(values.remote.trim());
  if (values.status) {
    printStatus(await withSync(dataDir, (core) => Promise.resolve(core.sync.status()), (client) => client.sync.status()));
    return 0;
  }
  const interrupt = cancelOnInterrupt('Cancelling the sync');
  const line = new ProgressLine();
  const options: SyncOptions = {
    signal: interrupt.signal,
    confirmDeletes: values['confirm-deletes'] === true,
    maxDeletePercent: percent,
    onProgress: (p) => line.show(() => (p.total ? `${bar((p.done ?? 0) / p.total)} ${PHASES[p.phase]} ${p.done}/${p.total}` : `${PHASES[p.phase]}…`)),
  };
  let summary: SyncSummary;
  try {
    summary = await withSync(
      dataDir,
      (core) => {
        if (remote !== undefined) core.sync.configure(remote, values.branch);
        return core.sync.sync(options);
      },
      (client) => client.sync.run({ ...(remote !== undefined ? { remote } : {}), ...(values.branch ? { branch: values.branch } : {}), confirmDeletes: options.confirmDeletes, ...(percent !== undefined ? { maxDeletePercent: percent } : {}) }, options),
    );
  } catch (error) {
    line.done();
    if (interrupt.signal.aborted) {
      console.log('Cancelled: nothing was pushed.');
      return 130;
    }
    throw error;
  } finally {
    line.done();
    interrupt.dispose();
  }
  printSummary(summary);
  return 0;
}

/** `use` on the store opened here, or `viaHost` through the host that serves it. */
function withSync<T>(dataDir: string, use: (core: Satchel) => Promise<T>, viaHost: (client: SatchelClient) => Promise<T>): Promise<T> {
  return directOrThroughHost(dataDir, {
    direct: async () => {
      const core = Satchel.open({ dataDir, importWorker: false });
      try {
        return await use(core);
      } finally {
        await core.close();
      }
    },
    throughHost: viaHost,
    hostNote: 'Syncing',
    author: authorOf('cli', 'satchel sync'),
  });
}

function printSummary(summary: SyncSummary): void {
  const deleted = summary.deletedHere + summary.deletedThere > 0 ? ` (deleted ${summary.deletedHere} here, ${summary.deletedThere} there)` : '';
  console.log(
    `Synced with ${summary.remote} (${summary.branch}): sent ${summary.sent}, received ${summary.received}${deleted}` +
      `${summary.attempts > 1 ? `, after ${summary.attempts} tries` : ''} (${(summary.elapsedMs / 1000).toFixed(1)} s).`,
  );
  for (const notice of summary.notices) console.log(`  ! ${noticeText(notice).message}${notice.copy ? ` (${notice.copy})` : ''}`);
  for (const skipped of summary.skipped.slice(0, 20)) console.log(`  ✗ ${skipped.id}: ${skipped.reason}`);
  const backup = backupText(summary.backup);
  if (backup !== undefined) console.log(`  ${backup}`);
  const secrets = secretsText(summary.secrets);
  if (secrets !== undefined) console.log(`  ${secrets}`);
}

function printStatus(status: SyncStatus): void {
  if (status.remote === undefined) {
    console.log('Sync is not set up: satchel sync --remote URL');
    return;
  }
  console.log(`Remote: ${status.remote} (${status.branch})\nChanged here since the last sync: ${status.changed}\nConflict copies: ${status.conflicts}`);
  if (status.last) console.log(`Last sync: ${status.last.at}, sent ${status.last.sent}, received ${status.last.received}`);
  const secrets = secretsText(status.last?.secrets);
  if (secrets !== undefined) console.log(`  ${secrets}`);
}
