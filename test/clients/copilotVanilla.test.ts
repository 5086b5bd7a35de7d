/**
 * Pieces' copilot vanilla TypeScript example (pinned in pinned.ts; its source comes from a local
 * snapshot, see snapshot.ts, and the test skips saying how to provide one when there is none) runs
 * its own non-UI code unchanged against a real Satchel host: the application registration of its
 * src/index.ts, ModelProgressController's models snapshot, and CopilotStreamController.askQGPT
 * (QGPTApi.relevance, then the question on /qgpt/stream). Its modules are bundled here with esbuild
 * against this repository's @pieces.app/pieces-os-client and run in a child Node process
 * (node/vanilla_run.ts) with the few browser globals they touch (node/browser.ts). The assertions are on what the
 * example renders and on what Satchel stored.
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
import type { TextGenerator } from '../../src/core/models/textGenerator.ts';
import { COPILOT_VANILLA_EXAMPLE } from './pinned.ts';
import { clientSource } from './snapshot.ts';
import { runSteps, stepOf, type Step, type StepRun } from './childSteps.ts';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const source = clientSource(COPILOT_VANILLA_EXAMPLE);
const RUNNER = here('./node/vanilla_run.ts');
const QUESTION = 'How do I list the active users?';
const ANSWER = 'Run the saved query: SELECT id, email FROM users WHERE active = true;';

let t: TestServer;
let work: string;
let bundle: string;
before(async () => {
  if (source.skip) return;
  work = mkdtempSync(join(tmpdir(), 'satchel-vanilla-'));
  bundle = join(work, 'vanilla.mjs');
  // The example's own modules, as its esbuild config bundles them, plus the SDK enum its main() reads.
  await build({
    stdin: {
      contents: [
        "export { getApplication } from './index';",
        "export { default as CopilotStreamController } from './CopilotStreamController';",
        "export { default as ModelProgressController } from './ModelProgressController';",
        "export { ModelFoundationEnum } from '@pieces.app/pieces-os-client';",
      ].join('\n'),
      resolveDir: source.src,
      loader: 'ts',
    },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    outfile: bundle,
    nodePaths: [here('../../node_modules')],
    logLevel: 'error',
  });
  t = await startTestServer();
});
after(async () => {
  await t?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

function runExample(): Promise<StepRun> {
  return runSteps(process.execPath, ['--experimental-strip-types', '--disable-warning=ExperimentalWarning', RUNNER, bundle, t.url, QUESTION]);
}

test('the copilot vanilla example registers, picks its default model and streams an answer from Satchel', { skip: source.skip }, async (ctx) => {
  ctx.diagnostic(`copilot vanilla example ${COPILOT_VANILLA_EXAMPLE.version} from ${source.from}`);
  await t.core.assets.writes.create(codeSeed('SELECT id, email FROM users WHERE active = true;\n', 'Active users', { ext: 'sql' }) as never, { author: TEST_AUTHOR });
  const prompts: string[] = [];
  const model: TextGenerator = { generate: async (prompt) => (prompts.push(prompt), ANSWER) };
  const original = t.core.models.textGenerator;
  t.core.models.textGenerator = () => model;
  let run: Awaited<ReturnType<typeof runExample>>;
  try {
    run = await runExample();
  } finally {
    t.core.models.textGenerator = original;
  }
  const step = (name: string): Step => stepOf(run, name, 'the example');

  // getApplication(): the connector registered the example's application.
  const connected = step('connected');
  assert.equal(connected['name'], 'OPEN_SOURCE');
  const applications = (await request(t.url, 'GET', '/applications')).json.iterable as Array<Record<string, unknown>>;
  assert.ok(applications.some((a) => a['id'] === connected['id']), 'the registered application is listed');

  // main(): GPT-3.5 found by its foundation among chat models only.
  const chosen = step('model');
  assert.equal(chosen['name'], 'GPT-3.5-turbo Chat Model', `offered: ${JSON.stringify(chosen['offered'])}`);

  // askQGPT: relevance found the saved snippet (it is the question's context), and the answer rendered whole.
  const answer = step('answer');
  assert.equal(answer['statuses'].at(-1), 'COMPLETED');
  assert.deepEqual(answer['errors'], [], 'nothing the example logged as an error');
  assert.equal(answer['rendered'].at(-1), ANSWER);
  assert.ok(!answer['rendered'].some((m: string) => /ERROR|failed|closed/.test(m)), JSON.stringify(answer['rendered']));
  assert.match(prompts[0] ?? '', /How do I list the active users\?/);
  assert.match(prompts[0] ?? '', /SELECT id, email FROM users WHERE active = true;/, 'the relevant snippet is the context');
  assert.ok(step('closed'));
  assert.equal(run.code, 0, run.stderr.slice(-3000));
});
