/**
 * The secrets door's cost on a first sync (docs/sync.md): 1,000 snippets (10 holding a credential) pushed to a local
 * bare repository, with the store's findings (every snippet still pending its scan: the sync scans them first, in batches) and
 * with a door that finds nothing, alternated three times each.
 *   node --experimental-strip-types --disable-warning=ExperimentalWarning test/bench/secretDoors.ts
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Satchel } from '../../src/core/satchel.ts';
import { authorOf } from '../../src/core/history/authors.ts';
import type { DoorSecrets } from '../../src/core/secrets/doorSecrets.ts';
import { seed } from '../core/sync/vaultSupport.ts';

const by = { author: authorOf('cli', 'bench') };
const none: DoorSecrets = { findingsIn: () => Promise.resolve([]), syncsWithSecrets: () => false };
async function run(label: string, secrets: DoorSecrets | undefined): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'satchel-door-bench-'));
  const remote = join(root, 'remote.git');
  execFileSync('git', ['init', '--bare', '--quiet', '--initial-branch=main', remote]);
  const core = Satchel.open({ dataDir: join(root, 'data'), importWorker: false, secretsScan: false, ...(secrets ? { secrets } : {}) });
  for (let i = 0; i < 1000; i++) {
    const secret = i % 100 === 0 ? `\nconst stripe = new Stripe("sk_live_51Hq8ZxK2mVnB4cR7tY0uW3sE9dF6gJ1hL${String(i).padStart(4, '0')}");` : '';
    const text = `export function handler${i}(request: Request): Response {\n  const url = new URL(request.url);\n  return new Response(url.pathname + ${i});\n}${secret}\n`;
    await core.assets.writes.create(seed(text, { name: `Handler ${i}` }), by);
  }
  core.sync.configure(remote);
  const started = performance.now();
  const summary = await core.sync.sync();
  console.log(`${label}: first sync of 1,000 snippets ${((performance.now() - started) / 1000).toFixed(2)} s, sent ${summary.sent}, redacted ${summary.secrets?.redacted ?? 0}`);
  await core.close();
  rmSync(root, { recursive: true, force: true });
}
for (let round = 0; round < 3; round++) {
  await run('door finding nothing', none);
  await run('store findings, all pending', undefined);
}
