/**
 * The data directory's port file: which port its host listens on, so other windows and tools find
 * it. Written whole then renamed (readers never see half a file), removed on a clean close.
 */
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '../core/context.ts';
import { PRIVATE_FILE_MODE } from '../core/store/privateFiles.ts';
import { SATCHEL_VERSION } from '../server/version.ts';

export const PORT_FILE = 'port.json';

export interface PortFile {
  readonly port: number;
  readonly pid: number;
  readonly started: string;
  /** A host a VS Code window started (`satchel --managed`): windows may stop it and start another. */
  readonly managed?: boolean;
  /** Satchel's version of the host, so a window of another version (updated) starts its own. */
  readonly version?: string;
}

export function readPortFile(dataDir: string): PortFile | undefined {
  try {
    const parsed = JSON.parse(readFileSync(join(dataDir, PORT_FILE), 'utf8')) as Partial<PortFile>;
    if (typeof parsed.port === 'number' && typeof parsed.pid === 'number') return parsed as PortFile;
  } catch {
    // Missing or half-written: treated as no host.
  }
  return undefined;
}

/** Names this process as `dataDir`'s host on `port`; a failure is logged, never thrown. */
export function writePortFile(dataDir: string, port: number, logger: Logger, managed = false): void {
  const portFile = join(dataDir, PORT_FILE);
  const content: PortFile = { port, pid: process.pid, started: new Date().toISOString(), version: SATCHEL_VERSION, ...(managed ? { managed } : {}) };
  const partial = `${portFile}.${process.pid}.tmp`;
  try {
    writeFileSync(partial, JSON.stringify(content), { mode: PRIVATE_FILE_MODE });
    renameSync(partial, portFile);
  } catch (error) {
    // A full disk must not keep the host from serving: tools that cannot find the port file
    // still find the host on its first port, and the log names it.
    rmSync(partial, { force: true });
    logger.warn(`Could not write ${portFile}: ${(error as Error).message}`);
  }
}

/** Removes the port file when it still names this process on `port` (a successor may have replaced it). */
export function removePortFile(dataDir: string, port: number): void {
  const current = readPortFile(dataDir);
  if (current?.pid === process.pid && current.port === port) rmSync(join(dataDir, PORT_FILE), { force: true });
}
