/**
 * A host over a store holding one snippet whose text is `text` (larger than a snippet may be today,
 * grown in SQL, as an older store holds it), opened as a store written before text heads existed
 * (opening it makes them: assetHeads.ts), with the scan of the grown text (on the secrets worker)
 * done first, so what a test measures is the door it calls.
 */
import { rmSync } from 'node:fs';
import { tempDir } from '../support/helpers.ts';
import { HostProcess, afterUpgradeScan } from './support.ts';
import { grownStore } from './grownRows.ts';

export interface LargeSnippetHost {
  readonly host: HostProcess;
  readonly port: number;
  /** The snippet's id. */
  readonly id: string;
  /** Stops the host and removes its store. */
  close(): Promise<void>;
}

export async function largeSnippetHost(prefix: string, text: string, name: string): Promise<LargeSnippetHost> {
  const dataDir = tempDir(prefix);
  const made = await grownStore(dataDir, [{ text: 'export const largeProbe = 1;', name }], (db, made) => {
    db.prepare(`UPDATE assets SET data = json_set(data, '$.formats.iterable[0].fragment.string.raw', ?) WHERE id = ?`).run(text, made[0]!);
    db.exec('DROP TABLE IF EXISTS asset_heads');
    db.exec('DELETE FROM schema_version WHERE version = 202');
  });
  const host = new HostProcess(dataDir);
  const close = async (): Promise<void> => {
    await host.kill();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const port = (await host.waitFor('serving', 120_000)).port!;
    await afterUpgradeScan(host, port);
    return { host, port, id: made[0]!, close };
  } catch (error) {
    await close();
    throw error;
  }
}
