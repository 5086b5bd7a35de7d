/**
 * Durability: a child process serves on port 0 and acknowledges creates; it is killed with SIGKILL
 * while more writes are in flight; on reopen every acknowledged write is there, with its content
 * and its search index entry, and the database passes its integrity check.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Satchel } from '../../src/core/satchel.ts';
import { removeKilledHostDir, tempDir } from '../support/helpers.ts';

const host = fileURLToPath(new URL('./durabilityHost.ts', import.meta.url));

async function startHost(dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--experimental-strip-types', '--disable-warning=ExperimentalWarning', host, dataDir], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error('host did not start within 20 s')), 20_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n')[0];
      if (out.includes('\n') && line) {
        clearTimeout(timer);
        resolve((JSON.parse(line) as { port: number }).port);
      }
    });
    child.once('exit', (code) => reject(new Error(`host exited early (${code})`)));
  });
  return { child, url: `http://127.0.0.1:${port}` };
}

async function create(url: string, raw: string): Promise<string> {
  const response = await fetch(`${url}/assets/create?transferables=false`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ asset: { format: { fragment: { string: { raw } }, classification: { specific: 'js' } }, metadata: { name: raw.slice(6, 30) } } }),
  });
  if (response.status !== 200) throw new Error(`create answered ${response.status}`);
  return ((await response.json()) as { id: string }).id;
}

function kill(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

test('acknowledged creates survive SIGKILL, twice, with content, index and integrity intact', { timeout: 120_000 }, async () => {
  const dataDir = tempDir('satchel-durability-');
  const acknowledged = new Map<string, string>();
  try {
    for (let round = 0; round < 2; round++) {
      const { child, url } = await startHost(dataDir);
      for (let i = 0; i < 20; i++) {
        const raw = `const durable_${round}_${i} = ${i};`;
        acknowledged.set(await create(url, raw), raw);
      }
      // More writes in flight while the process dies: they may or may not land, but must not corrupt.
      const inflight = Array.from({ length: 10 }, (_, i) => create(url, `const inflight_${round}_${i} = ${i};`).catch(() => undefined));
      await new Promise((resolve) => setTimeout(resolve, 5));
      await kill(child);
      await Promise.all(inflight);
    }
    const core = Satchel.open({ dataDir });
    try {
      assert.equal(core.context.database.integrityCheck(), 'ok');
      for (const [id, raw] of acknowledged) {
        const asset = core.assets.get(id);
        assert.equal(asset.formats.iterable[0]?.fragment?.string?.raw, raw, id);
      }
      const hits = core.assets.searches.search({ query: 'durable_1_7' }, { transferables: false, pseudo: false });
      assert.ok(hits.iterable.some((hit) => acknowledged.get(hit.identifier) === 'const durable_1_7 = 7;'));
      const rows = core.context.database.prepare('SELECT COUNT(*) AS n FROM assets').get() as { n: number };
      assert.ok(rows.n >= acknowledged.size);
    } finally {
      await core.close();
    }
  } finally {
    removeKilledHostDir(dataDir);
  }
});
