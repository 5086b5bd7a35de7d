/**
 * The Pieces CLI (pinned in pinned.ts; its source comes from a local snapshot, see snapshot.ts,
 * and the tests skip saying how to provide one when there is none) runs its snippet search,
 * conversation, model and `ask` commands unchanged against a real Satchel host; the assertions
 * are on what the CLI prints. The CLI's interactive pickers (`list`, `search`) draw a menu and return when stdin ends: what they print of the results is checked.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTestServer, request, type TestServer } from '../support/helpers.ts';
import { codeSeed } from '../support/assetFixtures.ts';
import { NO_MODEL_NOTICE } from '../../src/core/conversations/copilot.ts';
import type { TextGenerator } from '../../src/core/models/textGenerator.ts';
import { classifierModel, encoderModel } from '../../src/core/models/catalog.ts';
import { PIECES_CLI } from './pinned.ts';
import { clientSource } from './snapshot.ts';
import { TEST_AUTHOR } from '../support/authors.ts';
import { clientPython } from './childSteps.ts';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const source = clientSource(PIECES_CLI);
const skip = source.skip;
const RUNNER = here('./python/cli_run.py');

let t: TestServer;
let python: string;
let home: string;
before(async () => {
  if (skip) return;
  python = clientPython();
  t = await startTestServer();
  home = mkdtempSync(join(tmpdir(), 'satchel-cli-home-'));
});
after(async () => {
  await t?.close();
  if (home) rmSync(home, { recursive: true, force: true });
});

/** Runs `pieces <args>` as a user would, answering "skip" to any first-run question; returns what it printed. */
function pieces(...args: string[]): Promise<{ out: string; code: number | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(python, [RUNNER, source.src!, '--ignore-onboarding', ...args], {
      env: { ...process.env, SATCHEL_PORT: new URL(t.url).port, HOME: home, PYTHONDONTWRITEBYTECODE: '1', COLUMNS: '120', TERM: 'dumb' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (data: Buffer) => (out += data.toString()));
    child.stderr.on('data', (data: Buffer) => (out += data.toString()));
    child.stdin.end('skip\n');
    // Generous: seconds here, minutes were seen on a 2-core machine shared with other builds.
    const timer = setTimeout(() => child.kill('SIGKILL'), 300_000);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      // What a user reads: escape sequences of the terminal UI removed.
      resolve({ out: out.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').replace(/\x1b\][^\x07]*\x07/g, ''), code });
    });
  });
}

function withModel(answer: string): () => void {
  const model: TextGenerator = { generate: async () => answer };
  const original = t.core.models.textGenerator;
  t.core.models.textGenerator = () => model;
  return () => (t.core.models.textGenerator = original);
}

test('pieces search --mode fts and --mode ncs find the saved snippet', { skip }, async (ctx) => {
  ctx.diagnostic(`Pieces CLI ${PIECES_CLI.version} from ${source.from}`);
  await t.core.assets.writes.create(codeSeed('def greet(name: str) -> str:\n    return f"Hello, {name}!"\n', 'Greeter') as never, { author: TEST_AUTHOR });
  const fts = await pieces('search', '--mode', 'fts', 'greet');
  assert.match(fts.out, /Full Text Search\| Results Found: 1/, fts.out);
  const ncs = await pieces('search', '--mode', 'ncs', 'greet name');
  assert.match(ncs.out, /Neural Code Search\| Results Found: 1/, ncs.out);
  const none = await pieces('search', '--mode', 'fts', 'kubernetes');
  assert.match(none.out, /No matches found/, none.out);
});

test('pieces ask answers with the loaded model; pieces chats lists the conversation', { skip }, async () => {
  const restore = withModel('Run `git rebase -i HEAD~3` and mark the commits to squash.');
  let asked;
  try {
    asked = await pieces('ask', 'How do I squash my last three commits?');
  } finally {
    restore();
  }
  assert.match(asked.out, /git rebase -i HEAD~3/, asked.out);
  assert.equal(asked.code, 0, asked.out);
  const conversations = (await request(t.url, 'GET', '/conversations')).json.iterable as Array<Record<string, any>>;
  const asked3 = conversations.find((c) => c['name'] === 'How do I squash my last three commits?');
  assert.ok(asked3, 'the question opened a conversation named after it');
  assert.equal(asked3['messages'].iterable.length, 2);
  const chats = await pieces('chats');
  assert.match(chats.out, /How do I squash my last three commits\?/, chats.out);
});

test('pieces ask with no model loaded says so', { skip }, async () => {
  const asked = await pieces('ask', 'What does this regex match?');
  assert.match(asked.out.replace(/\s+/g, ' '), /No local model is loaded in Satchel/, asked.out);
  assert.ok(NO_MODEL_NOTICE.startsWith('No local model is loaded in Satchel'));
});

test('pieces list models shows the models the CLI can pick, its default included', { skip }, async () => {
  const listed = await pieces('list', 'models');
  assert.match(listed.out, /GPT-3\.5-turbo Chat Model/, listed.out);
  assert.match(listed.out, /Gemini 2\.0 Flash Lite Chat Model/, listed.out);
  // Its list is the SDK's get_models (cloud or downloaded): the models that cannot chat are not in it.
  for (const model of [classifierModel(), encoderModel()]) assert.ok(!listed.out.includes(model.name), `${model.name} listed:\n${listed.out}`);
  assert.doesNotMatch(listed.out, /Traceback/, listed.out);
});

/** `pieces run`: the CLI's interactive loop, typed into line by line as a user would. */
function session(): { until(pattern: RegExp): Promise<void>; type(text: string): void; done: Promise<{ out: string; code: number | null }> } {
  const child = spawn(python, [RUNNER, source.src!, '--ignore-onboarding', 'run'], {
    env: { ...process.env, SATCHEL_PORT: new URL(t.url).port, HOME: home, PYTHONDONTWRITEBYTECODE: '1', COLUMNS: '120', TERM: 'dumb' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let raw = '';
  let mark = 0;
  const shown = () => raw.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '');
  const waiters = new Set<() => void>();
  const onData = (data: Buffer) => {
    raw += data.toString();
    for (const wake of [...waiters]) wake();
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const timer = setTimeout(() => child.kill('SIGKILL'), 300_000);
  const done = new Promise<{ out: string; code: number | null }>((resolve) =>
    child.on('exit', (code) => {
      clearTimeout(timer);
      for (const wake of [...waiters]) wake();
      resolve({ out: shown(), code });
    }),
  );
  return {
    /** Resolves once `pattern` shows in what was printed since the last input. */
    until(pattern) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (pattern.test(shown().slice(mark))) {
            waiters.delete(check);
            resolve();
          } else if (child.exitCode !== null) {
            waiters.delete(check);
            reject(new Error(`the CLI ended before printing ${pattern}:\n${shown().slice(-3000)}`));
          }
        };
        waiters.add(check);
        check();
      });
    },
    type(text) {
      mark = shown().length;
      child.stdin.write(text);
    },
    done,
  };
}

test('pieces run: list, open a snippet (its code), rename it, delete it', { skip }, async () => {
  const asset = await t.core.assets.writes.create(codeSeed('SELECT id, email FROM users WHERE active = true;\n', 'Active users', { ext: 'sql' }) as never, { author: TEST_AUTHOR });
  const cli = session();
  await cli.until(/User:/);
  cli.type('list\r');
  await cli.until(/1: Active users/);
  // The picker fills in from a thread; the first entry is the newest snippet.
  await new Promise((resolve) => setTimeout(resolve, 300));
  cli.type('\r');
  await cli.until(/Code content:\s+SELECT id, email FROM users WHERE active = true;/);
  await cli.until(/User:/);
  cli.type('edit -n "Active user emails"\r');
  await cli.until(/Language: sql[\s\S]*User:/);
  assert.equal(t.core.assets.get(asset.id).name, 'Active user emails');
  cli.type('delete\r');
  await cli.until(/Are you sure/);
  cli.type('y\n');
  await cli.until(/Material Deleted/);
  assert.equal(t.core.assets.exists(asset.id), false);
  cli.type('exit\r');
  const { out, code } = await cli.done;
  assert.equal(code, 0, out);
  assert.doesNotMatch(out, /Traceback|Error/, out);
});
