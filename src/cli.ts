/**
 * Headless entry: `satchel [--data-dir DIR] [--port N]` serves the interface on loopback on
 * embedded defaults. If another process already hosts the data directory, it waits and takes
 * over when that host exits. `satchel import <file-or-folder>` imports snippet files (cli/importCommand.ts);
 * `satchel backup [FILE]` and `satchel restore FILE` copy the store out and put a copy back
 * (cli/backupCommand.ts, cli/restoreCommand.ts); `satchel export --vault DIR` writes the library as a
 * plain-file vault (cli/exportCommand.ts); `satchel sync` syncs it with a git remote (cli/syncCommand.ts);
 * `satchel connect <agent>` writes Satchel's MCP entry into an agent's config (cli/connectCommand.ts);
 * `satchel mcp-stdio` serves MCP on stdin/stdout for agents that start only local servers (cli/mcpStdioCommand.ts).
 */
import { parseArgs } from 'node:util';
import { currentHost, startHostWhenFree, tryStartHost, type HostOptions, type RunningHost } from './hosting/host.ts';
import { EXIT_SERVED_ELSEWHERE, exitCodeOf } from './hosting/hostExit.ts';
import { exitWhenIdle } from './hosting/idleExit.ts';
import { collectWhenIdle } from './hosting/idleCollection.ts';
import { backgroundPriority } from './hosting/backgroundPriority.ts';
import { HOST_FLAGS } from './hosting/hostCommand.ts';
import { hostTuning } from './cli/hostTuning.ts';
import type { Logger } from './core/context.ts';
import { defaultDataDir } from './core/dataDir.ts';
import { runImportCommand } from './cli/importCommand.ts';
import { runBackupCommand } from './cli/backupCommand.ts';
import { runRestoreCommand } from './cli/restoreCommand.ts';
import { runExportCommand } from './cli/exportCommand.ts';
import { runSyncCommand } from './cli/syncCommand.ts';
import { runConnectCommand, runDisconnectCommand } from './cli/connectCommand.ts';
import { runMcpStdioCommand } from './cli/mcpStdioCommand.ts';
import { keepOption } from './cli/backupText.ts';
import { retentionOption } from './cli/trashOption.ts';

const SHUTDOWN_DEADLINE_MS = 1800;

const logger: Logger = {
  info: (message) => console.log(`[satchel] ${message}`),
  warn: (message) => console.warn(`[satchel] ${message}`),
  error: (message, error) => console.error(`[satchel] ${message}`, error ?? ''),
};

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { ...HOST_FLAGS, help: { type: 'boolean', short: 'h' } },
    allowNegative: true,
  });
  if (values.help) {
    console.log(
      'Usage: satchel [--data-dir DIR] [--port N] [--keep-backups N] [--trash-retention-days N] [--allow-host NAME]… [--[no-]review-agent-writes]\n' +
        '               [--connector-min-length N] [--connector-reuse-threshold X] [--model-idle-unload-minutes N] [--model-catalog-url URL]\n' +
        '               [--idle-minutes N] [--soft-memory-limit MB] [--no-wait] [--managed]\n' +
        '       satchel import [--data-dir DIR] <file-or-folder>…\n' +
        '       satchel import [--data-dir DIR] --from-pieces [URL]\n' +
        '       satchel backup [--data-dir DIR] [FILE]\n' +
        '       satchel restore [--data-dir DIR] [FILE]\n' +
        '       satchel export --vault DIR [--data-dir DIR]\n' +
        '       satchel sync [--data-dir DIR] [--remote URL] [--confirm-deletes] [--status]\n' +
        '       satchel connect <agent>… [--port N] [--replace-pieces] [--rules] [--yes]   (satchel connect --help)\n' +
        '       satchel disconnect <agent>… [--rules] [--yes]\n' +
        '       satchel mcp-stdio [--data-dir DIR | --port N | --url URL] [--no-start]   (MCP over stdio, e.g. for Claude Desktop)\n' +
        '  --keep-backups: copies kept of each kind of automatic backup (default 5; 0 takes none).\n' +
        '  --trash-retention-days: days deleted snippets and conversations stay in the trash (default 30; 0 keeps them until emptied).\n' +
        '  --allow-host: a Host name answered besides loopback ones, e.g. host.docker.internal for tools in a container (Docker Desktop).\n' +
        "  --review-agent-writes: agents' writes wait under Agent changes until you accept them; --no-review-agent-writes: they count at once.\n" +
        '  --idle-minutes: exit once no connection (window, tool, stream) has been open for this long (default: never).\n' +
        '  --soft-memory-limit: megabytes of resident memory above which the host collects its garbage as it grows (default 140; 0: none).\n' +
        `  --no-wait: exit with code ${EXIT_SERVED_ELSEWHERE} instead of waiting when another process serves the data directory.\n` +
        '  --managed: started by a VS Code window, which may stop it to start one with its own settings (port file says so).\n' +
        '    Kept in the data directory: without either, the last choice (here or in VS Code) stands.\n' +
        '  SATCHEL_DATA_DIR, SATCHEL_PORT, SATCHEL_TRASH_RETENTION_DAYS and SATCHEL_ALLOWED_HOSTS (comma-separated) are read too.',
    );
    return;
  }
  const dataDir = values['data-dir'] ?? defaultDataDir();
  const keepBackups = keepOption(values['keep-backups']);
  const reviewChanges = values['review-agent-writes'];
  const retentionDays = retentionOption(values['trash-retention-days'] ?? process.env.SATCHEL_TRASH_RETENTION_DAYS);
  const portText = values.port ?? process.env.SATCHEL_PORT;
  const port = portText !== undefined ? Number(portText) : undefined;
  if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535)) {
    throw new Error(`--port must be a port number, not ${portText}`);
  }

  const allowedHosts = values['allow-host'] ?? process.env.SATCHEL_ALLOWED_HOSTS?.split(',').filter((name) => name.trim() !== '') ?? [];
  const tuning = hostTuning(values);

  // Said when the lock is found held, not from a look at the port file before trying: a process
  // started beside another could look before that one had written it, and then wait saying nothing.
  const waiting = (): void => {
    const existing = currentHost(dataDir);
    const port = existing.hosted ? existing.port : undefined;
    logger.info(`${dataDir} is already served${port !== undefined ? ` on port ${port}` : ''}; waiting to take over.`);
  };
  const stop = new AbortController();
  let host: RunningHost | undefined;
  let stopping = false;
  // Bulk work yields the cores to the editor; everyday answers keep the host's normal priority.
  const priority = backgroundPriority((message) => logger.warn(message));
  const shutdown = async (signal: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    logger.info(`${signal}: shutting down`);
    // Acknowledged writes are already durable: if closing hangs (a model runtime that will not
    // end, a stuck disk), the process still ends within the 2 s a service manager expects.
    setTimeout(() => {
      logger.warn(`${signal}: closing took longer than ${SHUTDOWN_DEADLINE_MS} ms; exiting anyway.`);
      process.exit(0);
    }, SHUTDOWN_DEADLINE_MS).unref();
    stop.abort();
    await host?.close();
    priority.dispose();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  // A process of its own: what the work left behind is given back once it is idle, or at once past the soft limit.
  const collector = collectWhenIdle(tuning.softMemoryLimitBytes !== undefined ? { softLimitBytes: tuning.softMemoryLimitBytes } : {});
  const options: HostOptions = {
    dataDir,
    logger,
    ...(port !== undefined ? { port } : {}),
    ...(keepBackups !== undefined ? { keepBackups } : {}),
    ...(retentionDays !== undefined ? { trash: { retentionDays } } : {}),
    ...(allowedHosts.length > 0 ? { allowedHosts } : {}),
    ...(tuning.connector ? { connector: tuning.connector } : {}),
    ...(tuning.models ? { models: tuning.models } : {}),
    agents: { reviewChanges },
    managed: values.managed === true,
    // The warm-up leaves the most behind, and a busy window leaves the host no idle time after it.
    afterWarmUp: () => collector?.collectNow(),
    afterBulkWork: () => collector?.afterWork(),
    whileBulkWork: (active) => priority.set(active),
    // A large body may take the host past its soft limit with garbage still in it.
    beforeLargeBody: (bytes) => collector?.beforeAllocating(bytes),
  };

  try {
    if (values.wait === false) {
      host = await tryStartHost(options);
      if (!host) {
        waiting();
        logger.info(`--no-wait: leaving (exit code ${EXIT_SERVED_ELSEWHERE}).`);
        process.exit(EXIT_SERVED_ELSEWHERE);
      }
    } else host = await startHostWhenFree(options, stop.signal, waiting);
  } catch (error) {
    if (stop.signal.aborted) return;
    console.error(`[satchel] ${(error as Error).message ?? error}`);
    process.exit(exitCodeOf(error));
  }
  logger.info(`serving ${dataDir} on ${host.server.url}${host.core.agentChanges.reviewing ? "; agents' writes wait for review" : ''}`);
  if (tuning.idleMs !== undefined) {
    const minutes = tuning.idleMs / 60_000;
    exitWhenIdle(host.server, tuning.idleMs, () => void shutdown(`no connection for ${minutes} minute${minutes === 1 ? '' : 's'}`));
  }
}

const subcommands: Readonly<Record<string, (args: readonly string[]) => Promise<number>>> = {
  import: runImportCommand,
  backup: runBackupCommand,
  restore: runRestoreCommand,
  export: runExportCommand,
  sync: runSyncCommand,
  connect: runConnectCommand,
  disconnect: runDisconnectCommand,
  'mcp-stdio': runMcpStdioCommand,
};
const subcommand = subcommands[process.argv[2] ?? ''];
const run = subcommand ? subcommand(process.argv.slice(3)).then((code) => void (process.exitCode = code)) : main();

run.catch((error: unknown) => {
  console.error(`[satchel] ${(error as Error).message ?? error}`);
  process.exit(1);
});
