/**
 * The Pieces Python SDK (pinned in pinned.ts; its source comes from a local snapshot, see
 * snapshot.ts, and the test skips saying how to provide one when there is none) runs its README
 * examples unchanged against a real Satchel host: start-up (discovery, version, user, default
 * model, its WebSocket streams), create, list, rename, edit and delete a snippet, ask the copilot,
 * search in its three modes, and the plain API client's health check. The assertions are on what
 * the SDK hands its user.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { startTestServer, request, type TestServer } from '../support/helpers.ts';
import type { TextGenerator } from '../../src/core/models/textGenerator.ts';
import { PIECES_SDK } from './pinned.ts';
import { clientSource } from './snapshot.ts';
import { clientPython, runSteps, stepOf, pythonEnv, type Step, type StepRun } from './childSteps.ts';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const source = clientSource(PIECES_SDK);
const SCRIPT = here('./python/sdk_readme.py');
const ANSWER = 'Object-oriented programming organises code as objects that bundle state with the behaviour that acts on it.';

let t: TestServer;
let python: string;
before(async () => {
  if (source.skip) return;
  python = clientPython();
  t = await startTestServer();
});
after(() => t?.close());

function runSdk(port: string): Promise<StepRun> {
  return runSteps(python, [SCRIPT, source.src!], pythonEnv({ SATCHEL_PORT: port }));
}

test('the Python SDK README examples work unchanged against Satchel', { skip: source.skip }, async (ctx) => {
  ctx.diagnostic(`Pieces Python SDK ${PIECES_SDK.version} from ${source.from}`);
  const prompts: string[] = [];
  const model: TextGenerator = {
    async generate(prompt) {
      prompts.push(prompt);
      return ANSWER;
    },
  };
  const original = t.core.models.textGenerator;
  t.core.models.textGenerator = () => model;
  let run: Awaited<ReturnType<typeof runSdk>>;
  try {
    run = await runSdk(new URL(t.url).port);
  } finally {
    t.core.models.textGenerator = original;
  }
  const step = (name: string): Step => stepOf(run, name, 'the SDK');

  // Start-up: the SDK accepted the version, found a user and its default chat model.
  const started = step('started');
  ctx.diagnostic(`PiecesClient started on attempt ${started['attempts']}`);
  assert.match(started['version'], /^12\./);
  assert.equal(typeof started['user'], 'string');
  assert.equal(started['model'], 'GPT-3.5-turbo Chat Model');

  // The snippet: created, listed with its text and language (read from original.reference).
  const id = step('created')['id'] as string;
  const listed = (step('assets')['items'] as Step[]).find((item) => item['id'] === id);
  assert.deepEqual(listed, { id, name: listed?.['name'], raw: "print('Hello, World!')", language: 'py' });
  assert.deepEqual(step('edited'), { step: 'edited', name: 'Greeting', raw: "print('Hello, Satchel!')" });
  // The SDK's own listing no longer has it, and neither has the store.
  assert.ok(!(step('deleted')['remaining'] as string[]).includes(id), 'gone from the SDK\'s listing after its delete');
  const stored = (await request(t.url, 'GET', `/asset/${id}`)).json;
  assert.equal(stored?.error?.code, 'not_found', `deleted by the SDK at the end (exit ${run.code}); stderr:\n${run.stderr.slice(-3000)}`);

  // The copilot: the streamed answer, and the conversation it left with both messages.
  const answer = step('answer');
  assert.equal(answer['text'], ANSWER);
  assert.match(prompts[0] ?? '', /What is Object-Oriented Programming\?/);
  assert.deepEqual(step('chat')['messages'], [
    ['USER', 'What is Object-Oriented Programming?'],
    ['ASSISTANT', ANSWER],
  ]);
  const messages = (await request(t.url, 'GET', `/conversation/${answer['conversation']}/messages`)).json.iterable;
  assert.equal(messages.length, 2);

  // Search in the SDK's three modes finds the edited snippet; the delete empties the list.
  for (const mode of ['fts', 'ncs', 'fuzzy']) {
    const found = run.steps.find((s) => s.step === 'search' && s['mode'] === mode);
    assert.deepEqual(found?.['ids'], [id], `search mode ${mode}`);
  }
  assert.deepEqual(step('deleted')['remaining'], []);
  assert.equal(step('health')['health'], 'ok');
  assert.ok(step('closed'));
  assert.equal(run.code, 0, run.stderr.slice(-3000));
});
