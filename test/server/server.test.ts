import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:net';
import { readFileSync } from 'node:fs';
import { Satchel } from '../../src/core/satchel.ts';
import { serve } from '../../src/server/server.ts';
import { silentLogger } from '../../src/core/context.ts';
import { SATCHEL_VERSION } from '../../src/server/version.ts';
import { tempDir } from '../support/helpers.ts';

function occupy(): Promise<Server> {
  return new Promise((resolve) => {
    const blocker = createServer();
    blocker.listen(0, '127.0.0.1', () => resolve(blocker));
  });
}

test('a taken port is skipped for the next one of the range', async () => {
  const blocker = await occupy();
  const taken = (blocker.address() as { port: number }).port;
  const core = Satchel.open({ dataDir: tempDir() });
  try {
    const server = await serve(core, { logger: silentLogger, portRange: { first: taken, last: taken + 5 } });
    assert.ok(server.port > taken && server.port <= taken + 5, `port ${server.port}`);
    const reply = await fetch(`${server.url}/.well-known/health`);
    assert.equal(await reply.text(), 'ok');
    await server.close();
  } finally {
    blocker.close();
    await core.close();
  }
});

test('a fully taken range fails with a message naming it', async () => {
  const blocker = await occupy();
  const taken = (blocker.address() as { port: number }).port;
  const core = Satchel.open({ dataDir: tempDir() });
  try {
    await assert.rejects(serve(core, { logger: silentLogger, portRange: { first: taken, last: taken } }), new RegExp(`ports ${taken}`));
  } finally {
    blocker.close();
    await core.close();
  }
});

test('the reported version is the package version', () => {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  assert.equal(SATCHEL_VERSION, pkg.version);
});
