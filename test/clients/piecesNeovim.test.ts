/**
 * Pieces for Neovim's Python part (pinned in pinned.ts, with the pinned Python SDK; both come from
 * local snapshots, see snapshot.ts, and the test skips saying how to provide them when either is
 * missing) runs unchanged against a real Satchel host with a stand-in for Neovim
 * (python/nvim_run.py): its start-up sets its default model "GPT-4o Chat Model", its model list
 * offers it, and a copilot question renders the loaded model's answer. The assertions are on what
 * the plugin hands Neovim's Lua side. Its picker offers every model that is `cloud` or `downloaded`
 * (the SDK's get_models): the second test checks it offers every chat model Satchel has and none of
 * the models that cannot chat (the classifier, the encoder), which the Pieces paths show as not downloaded.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTestServer, request, type TestServer } from '../support/helpers.ts';
import type { TextGenerator } from '../../src/core/models/textGenerator.ts';
import { PIECES_NEOVIM, PIECES_SDK } from './pinned.ts';
import { clientSource } from './snapshot.ts';
import { clientPython, runSteps, stepOf, pythonEnv, type Step, type StepRun } from './childSteps.ts';
import { canChat, CLASSIFIER_ID } from '../../src/core/models/catalog.ts';
import type { Model } from '../../src/core/piecesTypes.ts';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const plugin = clientSource(PIECES_NEOVIM);
const sdk = clientSource(PIECES_SDK);
const skip = plugin.skip ?? sdk.skip;
const SCRIPT = here('./python/nvim_run.py');
const QUESTION = 'How do I reverse a list in Lua?';
const ANSWER = 'Swap from both ends: for i = 1, #t // 2 do t[i], t[#t - i + 1] = t[#t - i + 1], t[i] end';

let t: TestServer;
let python: string;
let data: string;
before(async () => {
  if (skip) return;
  python = clientPython();
  t = await startTestServer();
  data = mkdtempSync(join(tmpdir(), 'satchel-nvim-data-'));
});
after(async () => {
  await t?.close();
  if (data) rmSync(data, { recursive: true, force: true });
});

/** The plugin's run, for the picker check below. */
let finished: StepRun | undefined;

function runPlugin(): Promise<StepRun> {
  return runSteps(python, [SCRIPT, sdk.src!, plugin.src!, data, QUESTION], pythonEnv({ SATCHEL_PORT: new URL(t.url).port }));
}

test('Pieces for Neovim starts with its default model, offers it, and answers a question from Satchel', { skip }, async (ctx) => {
  ctx.diagnostic(`Pieces for Neovim ${PIECES_NEOVIM.version} from ${plugin.from}; Python SDK ${PIECES_SDK.version} from ${sdk.from}`);
  const prompts: string[] = [];
  const model: TextGenerator = { generate: async (prompt) => (prompts.push(prompt), ANSWER) };
  const original = t.core.models.textGenerator;
  t.core.models.textGenerator = () => model;
  let run: Awaited<ReturnType<typeof runPlugin>>;
  try {
    run = await runPlugin();
    finished = run;
  } finally {
    t.core.models.textGenerator = original;
  }
  const step = (name: string): Step => stepOf(run, name, 'the plugin');

  // Start-up: the settings' default model is accepted (it used to stop at "Not a vaild model name").
  assert.equal(step('started')['model'], 'GPT-4o Chat Model', run.stderr.slice(-3000));
  assert.doesNotMatch(run.stderr, /Not a vaild model name|Traceback/);

  // The model picker offers the default, and choosing it by name is accepted.
  assert.match(step('models')['lua'], /"GPT-4o Chat Model"/);
  assert.match(step('change')['reply'], /successfully/);

  // The question: the answer appended to the chat, then completed, in one stored conversation.
  const answer = step('answer');
  const text = (answer['lua'] as string[])
    .filter((code) => code.includes('append_to_chat'))
    .map((code) => /\[=\[([\s\S]*?)\]=\]/.exec(code)?.[1] ?? '')
    .join('');
  assert.equal(text, ANSWER);
  assert.ok((answer['lua'] as string[]).some((code) => code.includes('completed(true)')));
  assert.match(prompts[0] ?? '', /How do I reverse a list in Lua\?/);
  const messages = (await request(t.url, 'GET', `/conversation/${answer['conversation']}/messages`)).json.iterable;
  assert.equal(messages.length, 2);
  assert.ok(step('closed'));
  assert.equal(run.code, 0, run.stderr.slice(-3000));
});

test('Pieces for Neovim\'s model picker offers no model that cannot chat, and every chat model Satchel lists', { skip }, async () => {
  assert.ok(finished, 'the plugin ran (see the test above)');
  // The plugin's picker is the SDK's get_models: every model that is cloud or downloaded, capabilities unread.
  const offered = stepOf(finished, 'models', 'the plugin')['lua'] as string;
  const models = (await request(t.url, 'GET', '/satchel/models')).json.iterable as Model[];
  const cannotChat = models.filter((m) => !canChat(m));
  // Downloaded, on Satchel's own route: the picker offered it while the Pieces paths said so too.
  assert.ok(cannotChat.some((m) => m.id === CLASSIFIER_ID && m.downloaded), 'Satchel lists its classifier, downloaded');
  assert.deepEqual(cannotChat.filter((m) => offered.includes(`"${m.name}"`)).map((m) => m.name), []);
  const chat = models.filter((m) => canChat(m) && (m.cloud || m.downloaded));
  assert.ok(chat.length >= 4, chat.map((m) => m.name).join(', '));
  assert.deepEqual(chat.filter((m) => !offered.includes(`"${m.name}"`)).map((m) => m.name), [], offered);
});
