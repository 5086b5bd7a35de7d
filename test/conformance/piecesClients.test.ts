/**
 * What the published Pieces clients (the Pieces CLI and the Python SDK) need at start-up and for
 * their everyday commands, checked through the published TypeScript client where it has the
 * operation: the version they accept, a local user, the models they hard-code, the streams they
 * open, `/qgpt/stream` and the search routes.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { WellKnownApi } from '@pieces.app/pieces-os-client';
import { startTestServer, request, type TestServer } from '../helpers.ts';
import { SATCHEL_VERSION } from '../../src/server/version.ts';

let t: TestServer;
before(async () => {
  t = await startTestServer();
});
after(() => t.close());

/** The Pieces CLI's own check (settings.py + version_compatibility.py): 12.0.0 <= version < 13.0.0, no pre-release below. */
function cliAccepts(version: string): boolean {
  const match = /^(\d+)\.(\d+)\.(\d+)(?:[-.](\S+))?$/.exec(version);
  if (!match) return false;
  const [major, minor, patch] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const atLeast12 = major > 12 || (major === 12 && (minor > 0 || patch > 0 || match[4] === undefined));
  return atLeast12 && major < 13;
}

test("the version is one the Pieces CLI accepts; Satchel's own rides in a header", async () => {
  const version = await new WellKnownApi(t.sdk).getWellKnownVersion();
  assert.ok(cliAccepts(version), `${version} is in the CLI's supported range`);
  assert.equal(cliAccepts('0.1.0'), false, 'the check itself refuses what Satchel used to answer');
  const reply = await fetch(`${t.url}/.well-known/version`);
  assert.equal(reply.headers.get('x-satchel-version'), SATCHEL_VERSION);
  const context = await request(t.url, 'POST', '/connect', { body: { application: { name: 'OPEN_SOURCE', version: '4.2.0', platform: 'LINUX' } } });
  assert.equal(context.json.health.os.version, version);
  // Discovery: HEAD /.well-known/health answers 200, as the clients' port scan expects.
  assert.equal((await fetch(`${t.url}/.well-known/health`, { method: 'HEAD' })).status, 200);
});
