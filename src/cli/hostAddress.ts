/** Finding the Satchel host that serves a data directory, for subcommands that go through it. */
import { readPortFile } from '../hosting/portFile.ts';

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
