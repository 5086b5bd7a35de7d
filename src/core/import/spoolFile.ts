/**
 * A file of the import spool (importSpool.ts), as the import reads it where it runs: in the import
 * process or, without one, in the store's process (importer.ts).
 */
import { readFile, rm } from 'node:fs/promises';

/** A spooled file's bytes; the file goes once read. */
export async function readSpooled(path: string): Promise<Uint8Array> {
  try {
    return await readFile(path);
  } finally {
    await removeSpoolFile(path);
  }
}

/** Removes a spool file if it is there: a file already gone, or a folder gone with it, is not an error. */
export async function removeSpoolFile(path: string): Promise<void> {
  await rm(path, { force: true }).catch(() => undefined);
}
