/** Finding the Satchel host that serves a data directory, for subcommands that go through it. */
import { readPortFile } from '../hosting/portFile.ts';
import { HostLock } from '../core/store/hostLock.ts';
import { SatchelClient } from '../client/satchelClient.ts';
import type { Author } from '../core/history/authors.ts';

/** The options naming the host a subcommand talks to: its data directory's, or one at a port or URL given outright. */
export const hostChoiceOptions = {
  'data-dir': { type: 'string' },
  port: { type: 'string' },
  url: { type: 'string' },
} as const;

/** How long to wait for a host that holds the lock to write its port file. */
const PORT_WAIT_MS = 10_000;

/** The running host's address; a host that holds the lock but is still starting gets a few seconds. */
export async function hostUrl(dataDir: string): Promise<string> {
  const deadline = Date.now() + PORT_WAIT_MS;
  for (;;) {
    const found = readPortFile(dataDir);
    if (found) return `http://127.0.0.1:${found.port}`;
    if (Date.now() > deadline) throw new Error(`Another process holds ${dataDir} but announces no port; is a Satchel host starting?`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** How a subcommand does its work on a data directory: itself, or through the host that serves it. */
export interface DirectOrHost<T> {
  /** The work, with this process holding the directory's lock (no host serves it). */
  readonly direct: () => Promise<T>;
  /** The same work through the running host. */
  readonly throughHost: (client: SatchelClient) => Promise<T>;
  /** Said on stderr before each way, e.g. "importing into it directly" and "Importing". */
  readonly directNote?: string | undefined;
  readonly hostNote: string;
  /** Whom the host records as the author of the writes. */
  readonly author?: Author | undefined;
}

/**
 * Runs `direct` while holding the data directory's lock when no host serves it, else `throughHost`
 * with a client of the host: a second process never writes the store beside its host.
 */
export async function directOrThroughHost<T>(dataDir: string, way: DirectOrHost<T>): Promise<T> {
  const lock = HostLock.tryAcquire(dataDir);
  if (lock) {
    if (way.directNote !== undefined) process.stderr.write(`No Satchel host serves ${dataDir}; ${way.directNote}.\n`);
    try {
      return await way.direct();
    } finally {
      lock.dispose();
    }
  }
  const url = await hostUrl(dataDir);
  process.stderr.write(`${way.hostNote} through the Satchel host at ${url}.\n`);
  const client = new SatchelClient(url, way.author !== undefined ? { author: way.author } : {});
  try {
    return await way.throughHost(client);
  } finally {
    client.dispose();
  }
}
