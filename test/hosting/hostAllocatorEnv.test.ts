import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../support/helpers.ts';
import { DATA_HOST_ALLOCATOR_ENV, spawnDataHost } from '../../src/hosting/hostCommand.ts';
import { DATA_HOST_NODE_FLAGS } from '../../src/core/hostNodeFlags.ts';

const NAMES = Object.keys(DATA_HOST_ALLOCATOR_ENV);

interface SpawnedView {
  readonly env: Record<string, string | undefined>;
  readonly execArgv: string[];
}

/** Starts a stand-in host script as a window starts the data host, and returns the allocator settings and Node flags it was given. */
async function spawnedHostView(execArgv?: readonly string[]): Promise<SpawnedView> {
  const dir = tempDir('satchel-host-env-');
  try {
    const script = join(dir, 'host.cjs');
    const out = join(dir, 'env.json');
    writeFileSync(script, `require('node:fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify({ env: Object.fromEntries(${JSON.stringify(NAMES)}.map((name) => [name, process.env[name]])), execArgv: process.execArgv }));`);
    spawnDataHost({ execPath: process.execPath, script, ...(execArgv ? { execArgv } : {}) }, { dataDir: join(dir, 'data'), idleMinutes: 1 });
    // The host is started detached and not waited for: its file says it ran.
    for (let waited = 0; !existsSync(out) || readFileSync(out, 'utf8') === ''; waited += 20) {
      if (waited > 20_000) throw new Error('the stand-in host wrote nothing within 20 s');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return JSON.parse(readFileSync(out, 'utf8')) as SpawnedView;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('a data host a window starts is given the allocator settings that let it give memory back', async () => {
  const saved = Object.fromEntries(NAMES.map((name) => [name, process.env[name]]));
  for (const name of NAMES) delete process.env[name];
  try {
    assert.deepEqual((await spawnedHostView()).env, { MALLOC_ARENA_MAX: '2', MALLOC_TRIM_THRESHOLD_: '131072' });
  } finally {
    for (const [name, value] of Object.entries(saved)) if (value !== undefined) process.env[name] = value;
  }
});

test("the user's own allocator settings win over the host's", async () => {
  const saved = process.env.MALLOC_ARENA_MAX;
  process.env.MALLOC_ARENA_MAX = '4';
  try {
    assert.equal((await spawnedHostView()).env.MALLOC_ARENA_MAX, '4');
  } finally {
    if (saved === undefined) delete process.env.MALLOC_ARENA_MAX;
    else process.env.MALLOC_ARENA_MAX = saved;
  }
});

test("a data host a window starts is given V8's smaller young generation and slower old-generation growth", async () => {
  assert.deepEqual((await spawnedHostView()).execArgv, ['--max-semi-space-size=2', '--heap-growing-percent=20']);
  assert.deepEqual(DATA_HOST_NODE_FLAGS, ['--max-semi-space-size=2', '--heap-growing-percent=20']);
});

test("the caller's own Node flags come after the host's, so theirs win", async () => {
  const { execArgv } = await spawnedHostView(['--max-semi-space-size=8']);
  assert.deepEqual(execArgv, ['--max-semi-space-size=2', '--heap-growing-percent=20', '--max-semi-space-size=8']);
});
