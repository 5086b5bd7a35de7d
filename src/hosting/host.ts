/**
 * The host role, shared by the CLI and the extension: take the data directory's host lock, open
 * the store, serve it, and write the port file. Disposing releases all of it in reverse order.
 */
import { HostLock } from '../core/store/hostLock.ts';
import { Satchel, type CoreOptions } from '../core/satchel.ts';
import { serve, type SatchelServer, type ServeOptions } from '../server/server.ts';
import { readPortFile, removePortFile, writePortFile } from './portFile.ts';

/** After the start-up requests (health, the views' first frames). */
const WARM_UP_DELAY_MS = 250;

export interface HostOptions extends CoreOptions, Omit<ServeOptions, 'logger'> {
  readonly logger: NonNullable<CoreOptions['logger']>;
  /** Started by a VS Code window, which may stop it to start one with its settings (the port file says so). */
  readonly managed?: boolean;
  /** Called once the start's warm-up (the title index, completion's language table) is done. */
  readonly afterWarmUp?: () => void;
  /** Called each time the last bulk work under way ends (a sync, an import, a back-fill, a compaction pass: bulkWork.ts). */
  readonly afterBulkWork?: () => void;
  /** Told when bulk work begins with none under way (true) and when the last under way ends (false). */
  readonly whileBulkWork?: (active: boolean) => void;
}

export interface RunningHost {
  readonly core: Satchel;
  readonly server: SatchelServer;
  close(): Promise<void>;
}

/** Whether another process hosts `dataDir` now, and on which port when its port file says. */
export function currentHost(dataDir: string): { readonly hosted: false } | { readonly hosted: true; readonly port?: number } {
  const probe = HostLock.tryAcquire(dataDir);
  if (probe) {
    probe.dispose();
    return { hosted: false };
  }
  const file = readPortFile(dataDir);
  return file ? { hosted: true, port: file.port } : { hosted: true };
}

/** Starts hosting `dataDir`, or returns undefined at once when another process hosts it. */
export async function tryStartHost(options: HostOptions): Promise<RunningHost | undefined> {
  const lock = HostLock.tryAcquire(options.dataDir);
  if (!lock) return undefined;
  return startWithLock(lock, options);
}

/** Waits until this process can host `dataDir` (standby, `onWaiting` told once as it starts waiting), then starts. */
export async function startHostWhenFree(options: HostOptions, signal?: AbortSignal, onWaiting?: () => void): Promise<RunningHost> {
  const lock = await HostLock.acquire(options.dataDir, signal, undefined, onWaiting);
  return startWithLock(lock, options);
}

async function startWithLock(lock: HostLock, options: HostOptions): Promise<RunningHost> {
  let core: Satchel | undefined;
  try {
    core = Satchel.open(options);
    const server = await serve(core, options);
    writePortFile(core.dataDir, server.port, options.logger, options.managed === true);
    const opened = core;
    const bulkEnded = options.afterBulkWork ? opened.onDidEndBulkWork(options.afterBulkWork) : undefined;
    const bulkChanged = options.whileBulkWork ? opened.onDidChangeBulkWork(options.whileBulkWork) : undefined;
    // Work that began as the store opened (the secrets scan of what was left pending) was before this listener.
    if (opened.bulkWorkActive) options.whileBulkWork?.(true);
    // Read in slices between requests; closing the store mid-way only ends the reading early.
    const warmUp = setTimeout(() => {
      // Bulk work: it comes while the editor starts, the busiest seconds of a window (whileBulkWork).
      const warming = opened.context.bulkWork.begin();
      opened.assets
        .warmUp()
        .then(() => opened.snippets.warm())
        .finally(() => warming.dispose())
        .then(() => options.afterWarmUp?.())
        .catch((error: unknown) => options.logger.warn(`Search warm-up stopped: ${(error as Error).message}`));
    }, WARM_UP_DELAY_MS);
    warmUp.unref();
    let closing: Promise<void> | undefined;
    return {
      core: opened,
      server,
      close: () =>
        (closing ??= (async () => {
          clearTimeout(warmUp);
          bulkEnded?.dispose();
          bulkChanged?.dispose();
          removePortFile(opened.dataDir, server.port);
          await server.close();
          await opened.close();
          lock.dispose();
        })()),
    };
  } catch (error) {
    await core?.close();
    lock.dispose();
    throw error;
  }
}
