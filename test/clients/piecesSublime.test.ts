/**
 * Pieces for Sublime (pinned in pinned.ts; its source comes from a local snapshot, see
 * snapshot.ts, and the test skips saying how to provide one when there is none) starts unchanged
 * against a real Satchel host with stand-ins for Sublime's modules (python/sublime_run.py): its
 * plugin_loaded() opens the health socket, and startup() accepts the version, chooses the model its
 * default settings name (`o4-mini-2025-04-16`; it used to stop there, every command then asking to
 * sign in), opens its streams and reaches its onboarding; then a question asked in its copilot view
 * gets the loaded model's answer. The assertions are on what the plugin chose, ran and showed.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTestServer, request, type TestServer } from '../support/helpers.ts';
import type { TextGenerator } from '../../src/core/models/textGenerator.ts';
import { PIECES_SUBLIME } from './pinned.ts';
import { clientSource } from './snapshot.ts';
import { clientPython, runSteps, stepOf, pythonEnv, type Step, type StepRun } from './childSteps.ts';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const source = clientSource(PIECES_SUBLIME);
const SCRIPT = here('./python/sublime_run.py');
const QUESTION = 'How do I sort a dict by value?';
const ANSWER = 'Use sorted(d.items(), key=lambda kv: kv[1]).';

let t: TestServer;
let python: string;
let packages: string;
before(async () => {
  if (source.skip) return;
  python = clientPython();
  t = await startTestServer();
  packages = mkdtempSync(join(tmpdir(), 'satchel-sublime-packages-'));
});
after(async () => {
  await t?.close();
  if (packages) rmSync(packages, { recursive: true, force: true });
});

function runPlugin(): Promise<StepRun> {
  return runSteps(python, [SCRIPT, source.src!, packages], pythonEnv({ SATCHEL_PORT: new URL(t.url).port, SUBLIME_QUESTION: QUESTION }));
}

test('Pieces for Sublime starts (version accepted, its default model chosen, onboarding reached) and its copilot view answers from Satchel', { skip: source.skip }, async (ctx) => {
  ctx.diagnostic(`Pieces for Sublime ${PIECES_SUBLIME.version} from ${source.from}`);
  const prompts: string[] = [];
  const model: TextGenerator = { generate: async (prompt) => (prompts.push(prompt), ANSWER) };
  const original = t.core.models.textGenerator;
  t.core.models.textGenerator = () => model;
  let run: Awaited<ReturnType<typeof runPlugin>>;
  try {
    run = await runPlugin();
  } finally {
    t.core.models.textGenerator = original;
  }
  const step = (name: string): Step => stepOf(run, name, 'the plugin');
  assert.equal(step('imported')['version'], PIECES_SUBLIME.version);

  const started = step('started');
  assert.deepEqual(started['errors'], [], run.stderr.slice(-3000));
  assert.doesNotMatch(run.stderr, /out of date|Traceback/, run.stderr.slice(-3000));
  // The model its settings name, answered by a stand-in Satchel lists under that unique.
  assert.equal(started['unique'], 'o4-mini-2025-04-16', JSON.stringify(started));
  const models = (await request(t.url, 'GET', '/models')).json.iterable as Array<Record<string, any>>;
  assert.equal(models.find((m) => m['id'] === started['model_id'])?.['unique'], 'o4-mini-2025-04-16');
  // startup() ran to its end: its first-run onboarding was launched in the active window.
  assert.ok((started['commands'] as unknown[][]).some((c) => c[0] === 'window' && c[1] === 'pieces_onboarding'), JSON.stringify(started['commands']));

  // The copilot view: the question typed after its prompt, the answer appended after "Copilot",
  // and the conversation it opened kept for the follow-up.
  const answer = step('answer');
  assert.deepEqual(answer['errors'], [], run.stderr.slice(-3000));
  assert.equal(answer['text'], `>>> **User**: ${QUESTION}\n\n>>> **Copilot**: ${ANSWER}\n\n>>> **User**: `);
  assert.match(prompts[0] ?? '', /How do I sort a dict by value\?/);
  const messages = (await request(t.url, 'GET', `/conversation/${answer['conversation']}/messages`)).json.iterable;
  assert.equal(messages.length, 2);
  assert.equal(run.code, 0, run.stderr.slice(-3000));
});
