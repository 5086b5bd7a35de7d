/**
 * Pieces' example app `example-typescript` (pinned in pinned.ts; its source comes from a local
 * snapshot, see snapshot.ts, and the test skips saying how to provide one when there is none) runs
 * its own non-UI code unchanged against a real Satchel host: connect() (whose reply the header reads
 * for the user's name), and the create, rename and delete of a snippet its buttons call. Its modules
 * are bundled here with esbuild against this repository's @pieces.app/pieces-os-client and run in a
 * child Node process (node/example_run.ts) with the browser globals they touch (node/browser.ts).
 * Its React components and its copilot panel (pieces-copilot-sdk, unavailable here: see
 * node/copilotSdkAbsent.ts) are not run; the contract test replays their requests.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { startTestServer, request, type TestServer } from '../support/helpers.ts';
import { codeSeed } from '../support/assetFixtures.ts';
import { TEST_AUTHOR } from '../support/authors.ts';
import { EXAMPLE_TYPESCRIPT } from './pinned.ts';
import { clientSource } from './snapshot.ts';
import { runSteps, stepOf, type Step, type StepRun } from './childSteps.ts';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const source = clientSource(EXAMPLE_TYPESCRIPT);
const RUNNER = here('./node/example_run.ts');
const CODE = 'const add = (a: number, b: number): number => a + b;\n';
const NAME = 'Adder';

let t: TestServer;
let work: string;
let bundle: string;
before(async () => {
  if (source.skip) return;
  work = mkdtempSync(join(tmpdir(), 'satchel-example-ts-'));
  bundle = join(work, 'example.mjs');
  await build({
    stdin: {
      contents: [
        "export { connect } from './app/utils/Connect';",
        "export { createAsset, renameAsset, deleteAsset } from './app/components/Asset/Asset';",
        "export { BASE_URL, config } from './platform.config';",
        "export { AssetsApi } from '@pieces.app/pieces-os-client';",
      ].join('\n'),
      resolveDir: source.src,
      loader: 'ts',
    },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    outfile: bundle,
    nodePaths: [here('../../node_modules')],
    alias: { 'pieces-copilot-sdk': here('./node/copilotSdkAbsent.ts') },
    logLevel: 'error',
  });
  t = await startTestServer();
});
after(async () => {
  await t?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

function runExample(): Promise<StepRun> {
  return runSteps(process.execPath, ['--experimental-strip-types', '--disable-warning=ExperimentalWarning', RUNNER, bundle, t.url, CODE, NAME]);
}

test('the example app connects (its header finds the user) and creates, renames and deletes a snippet in Satchel', { skip: source.skip }, async (ctx) => {
  ctx.diagnostic(`example-typescript ${EXAMPLE_TYPESCRIPT.version} from ${source.from}`);
  const other = await t.core.assets.writes.create(codeSeed('SELECT id, email FROM users WHERE active = true;\n', 'Active users', { ext: 'sql' }) as never, { author: TEST_AUTHOR });
  const run = await runExample();
  const step = (name: string): Step => stepOf(run, name, 'the example');

  // connect(): what App.tsx reads from the reply.
  const connected = step('connected');
  assert.equal(connected['baseUrl'], 'http://localhost:5323', 'a Linux browser goes to the port platform.config.ts names');
  const user = (await request(t.url, 'GET', '/user')).json;
  assert.equal(typeof user?.user?.name, 'string', 'Satchel has a local user');
  assert.equal(connected['user'], user.user.name, 'the header shows the user, not "Please Login"');
  assert.equal(typeof connected['os'], 'string');
  assert.equal(typeof connected['application'], 'string');

  // createAsset, then the page's list finds it.
  const id = step('created')['id'] as string | null;
  assert.ok(id, `created and listed: ${JSON.stringify(step('created')['listed'])}`);

  // renameAsset: AssetsApi snapshot, then AssetApi.assetUpdate of the listed asset with its new name.
  assert.equal(step('renamed')['name'], `${NAME} (renamed)`);
  // deleteAsset: the page's list afterwards holds the other snippet, with its classification.
  const deleted = step('deleted');
  assert.deepEqual(deleted['errors'], [], 'nothing the example logged as an error');
  assert.deepEqual(deleted['alerts'], ['selected snippet got deleted']);
  assert.deepEqual(deleted['shown'], [{ id: other.id, name: 'Active users', classification: 'sql' }]);
  const stored = (await request(t.url, 'GET', `/asset/${id}`)).json;
  assert.equal(stored?.error?.code, 'not_found', 'deleted in the store');
  assert.equal(run.code, 0, run.stderr.slice(-3000));
});
