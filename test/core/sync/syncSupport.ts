/** Two machines and a remote: data directories A and B syncing through a local bare repository (no network). */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Satchel } from '../../../src/core/satchel.ts';
import { tempDir } from '../../support/helpers.ts';
import { allRecords } from './vaultSupport.ts';
import type { VaultAsset } from '../../../src/core/sync/vaultFormat.ts';

export interface Machines {
  readonly root: string;
  readonly remote: string;
  readonly a: Satchel;
  readonly b: Satchel;
  /** A third data directory's path (opened by the test when it needs one). */
  readonly dirs: { readonly a: string; readonly b: string };
}

export function bareRepository(root: string, name = 'remote.git'): string {
  const path = join(root, name);
  mkdirSync(path, { recursive: true });
  execFileSync('git', ['init', '--bare', '--quiet', path]);
  return path;
}

export function openMachine(dataDir: string, remote?: string): Satchel {
  const core = Satchel.open({ dataDir, importWorker: false });
  if (remote !== undefined) core.sync.configure(remote);
  return core;
}

/** Runs `fn` with A and B set to sync with one bare repository; everything is removed after. */
export async function withMachines(fn: (machines: Machines) => Promise<void>): Promise<void> {
  const root = tempDir('satchel-sync-');
  const remote = bareRepository(root);
  const dirs = { a: join(root, 'a'), b: join(root, 'b') };
  const a = openMachine(dirs.a, remote);
  const b = openMachine(dirs.b, remote);
  try {
    await fn({ root, remote, a, b, dirs });
  } finally {
    await a.close();
    await b.close();
    rmSync(root, { recursive: true, force: true });
  }
}

/** The records of a machine, comparable with deepEqual (binary content as arrays). */
export function library(core: Satchel): Map<string, Record<string, unknown>> {
  return new Map([...allRecords(core)].map(([id, record]) => [id, comparable(record)]));
}

export function comparable(record: VaultAsset): Record<string, unknown> {
  return { ...record, content: typeof record.content === 'string' ? record.content : [...record.content] };
}

/** The remote branch's files, as git lists them. */
export function remoteFiles(remote: string, branch = 'main'): string[] {
  try {
    return execFileSync('git', ['--git-dir', remote, 'ls-tree', '-r', '--name-only', branch], { encoding: 'utf8' }).split('\n').filter(Boolean);
  } catch {
    return [];
  }
}
