/**
 * What the published Pieces clients (the Pieces CLI and the Python SDK) need at start-up and for
 * their everyday commands, checked through the published TypeScript client where it has the
 * operation: the version they accept, a local user, the models they hard-code, the streams they
 * open, `/qgpt/stream` and the search routes.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { AnchorsApi, AssetsApi, SearchApi, type Seed, ModelApi, ModelsApi, OSApi, RangesApi, UserApi, WellKnownApi } from '@pieces.app/pieces-os-client';
import { openFrames } from '../support/frames.ts';
import { assertWire } from './assetsWireCheck.ts';
import { startTestServer, request, type TestServer } from '../support/helpers.ts';
import { SATCHEL_VERSION } from '../../src/server/version.ts';
import { NO_MODEL_NOTICE } from '../../src/core/conversations/copilot.ts';
import type { TextGenerator } from '../../src/core/models/textGenerator.ts';
import { WebSocket } from 'ws';
import { codeSeed } from '../support/assetFixtures.ts';

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

test('GET /user answers the local user, the same every time and after a restart of the store', async () => {
  const first = await new UserApi(t.sdk).userSnapshotRaw();
  const json = (await first.raw.clone().json()) as Record<string, unknown>;
  assertWire('ReturnedUserProfile', json);
  const user = (await first.value()).user;
  assert.ok(user?.id, 'a user the clients accept as signed in');
  assert.equal(typeof user.name, 'string');
  assert.equal((await new UserApi(t.sdk).userSnapshot()).user?.id, user.id);
  assert.equal(t.core.context.records.count('user'), 1);
  // Cloud sign-in is refused clearly, not with a 404.
  const signIn = await request(t.url, 'POST', '/os/sign_in');
  assert.equal(signIn.status, 422);
  assert.match(signIn.json.error.message, /local only/);
  await assert.rejects(new OSApi(t.sdk).signIntoOS(), (error: { response?: Response }) => error.response?.status === 422);
});

test('the streams the Python SDK opens at start-up answer: user, anchors, ranges, vision status', async () => {
  const user = await openFrames<Record<string, any>>(`${t.url}/user/stream`);
  const anchors = await openFrames<Record<string, any>>(`${t.url}/anchors/stream/identifiers`);
  const ranges = await openFrames<Record<string, any>>(`${t.url}/ranges/stream/identifiers`);
  const vision = await openFrames<Record<string, any>>(`${t.url}/workstream_pattern_engine/processors/vision/status/stream`);
  try {
    assertWire('UserProfile', await user.until(() => true));
    assert.ok(Array.isArray((await anchors.until(() => true))['iterable']));
    assert.ok(Array.isArray((await ranges.until(() => true))['iterable']));
    assertWire('WorkstreamPatternEngineStatus', await vision.until(() => true));
    const anchor = await new AnchorsApi(t.sdk).anchorsCreateNewAnchor({ seededAnchor: { type: 'FILE', fullpath: '/src/main.py' } });
    await anchors.until((frame) => frame['iterable'].some((item: any) => item.anchor?.id === anchor.id));
    const range = await new RangesApi(t.sdk).rangesCreateNewRange({ seededRange: { between: false } });
    await ranges.until((frame) => frame['iterable'].some((item: any) => item.range?.id === range.id));
  } finally {
    for (const stream of [user, anchors, ranges, vision]) stream.close();
  }
  const status = await request(t.url, 'GET', '/workstream_pattern_engine/processors/vision/status');
  assert.equal(status.status, 200);
  assert.equal(status.json.vision.activation, undefined, 'long-term memory is not active here');
});

test('the models the clients hard-code are listed as they expect, and cannot be downloaded or loaded', async () => {
  const list = await new ModelsApi(t.sdk).modelsSnapshot();
  // The Python SDK keeps {name: id} of the models that are cloud or downloaded, then picks its default by name.
  const usable = new Map(list.iterable.filter((m) => m.cloud || m.downloaded).map((m) => [m.name, m.id]));
  const sdkDefault = usable.get('GPT-3.5-turbo Chat Model');
  assert.ok(sdkDefault, 'the Python SDK finds its default chat model');
  // The Pieces CLI's default model is found by unique, then selected by its name.
  const cliDefault = list.iterable.find((m) => m.unique === 'gemini-2.0-flash-lite-001');
  assert.ok(cliDefault && usable.has(cliDefault.name), "the CLI finds its default model");
  for (const id of [sdkDefault, cliDefault.id]) {
    await assert.rejects(new ModelApi(t.sdk).modelSpecificModelDownload({ model: id }), (e: { response?: Response }) => e.response?.status === 422);
    await assert.rejects(new ModelApi(t.sdk).modelSpecificModelLoad({ model: id }), (e: { response?: Response }) => e.response?.status === 422);
    const one = await new ModelApi(t.sdk).modelsSpecificModelSnapshotRaw({ model: id });
    assertWire('Model', await one.raw.clone().json());
    assert.match((await one.value()).description ?? '', /local text model/);
  }
});

/** One /qgpt/stream connection: send QGPTStreamInput frames, collect QGPTStreamOutput frames. */
async function qgpt(): Promise<{ ask(input: object): Promise<Array<Record<string, any>>>; close(): void }> {
  const socket = new WebSocket(`${t.url.replace(/^http/, 'ws')}/qgpt/stream`);
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  return {
    ask(input) {
      const frames: Array<Record<string, any>> = [];
      return new Promise((resolve) => {
        const onMessage = (data: unknown) => {
          const frame = JSON.parse(String(data)) as Record<string, any>;
          frames.push(frame);
          if (frame['status'] !== 'IN-PROGRESS') {
            socket.off('message', onMessage);
            resolve(frames);
          }
        };
        socket.on('message', onMessage);
        socket.send(JSON.stringify(input));
      });
    },
    close: () => socket.close(),
  };
}

/** What the Pieces CLI's `ask` shows: the text of every frame's answers, appended. */
function shown(frames: ReadonlyArray<Record<string, any>>): string {
  return frames.map((f) => (f['question']?.answers?.iterable ?? []).map((a: { text: string }) => a.text).join('')).join('');
}

test('/qgpt/stream answers with the loaded local model and stores question and answer in a conversation', async () => {
  const prompts: string[] = [];
  const fake: TextGenerator = {
    async generate(prompt) {
      prompts.push(prompt);
      return prompts.length === 1 ? 'Use `git rebase -i HEAD~3` and mark commits with squash.' : 'Then force-push with --force-with-lease.';
    },
  };
  const original = t.core.models.textGenerator;
  t.core.models.textGenerator = () => fake;
  const stream = await qgpt();
  try {
    // What the Python SDK's copilot.stream_question sends (the CLI sends the same).
    const first = await stream.ask({ relevance: { query: 'How do I squash my last three commits?', model: 'any', options: { question: true } } });
    assert.deepEqual(first.map((f) => f['status']), ['IN-PROGRESS', 'COMPLETED']);
    for (const frame of first) assertWire('QGPTStreamOutput', frame);
    assert.equal(shown(first), 'Use `git rebase -i HEAD~3` and mark commits with squash.');
    const conversation = first[1]!['conversation'] as string;
    const followUp = await stream.ask({ conversation, relevance: { query: 'And then?', options: { question: true } } });
    assert.equal(shown(followUp), 'Then force-push with --force-with-lease.');
    assert.equal(followUp[1]!['conversation'], conversation);
    assert.match(prompts[1]!, /squash my last three commits/, 'the follow-up is asked with the conversation so far');
    const messages = (await request(t.url, 'GET', `/conversation/${conversation}/messages`)).json.iterable as Array<Record<string, any>>;
    assert.deepEqual(
      messages.map((m) => [m['role'], m['fragment']['string']['raw']]),
      [
        ['USER', 'How do I squash my last three commits?'],
        ['ASSISTANT', 'Use `git rebase -i HEAD~3` and mark commits with squash.'],
        ['USER', 'And then?'],
        ['ASSISTANT', 'Then force-push with --force-with-lease.'],
      ],
    );
    // An unknown conversation is a FAILED frame with the reason.
    const failed = await stream.ask({ conversation: '00000000-0000-4000-8000-000000000000', relevance: { query: 'hi' } });
    assert.equal(failed[0]!['status'], 'FAILED');
    assert.equal(failed[0]!['statusCode'], 404);
    assert.match(failed[0]!['errorMessage'], /conversation/);
  } finally {
    stream.close();
    t.core.models.textGenerator = original;
  }
});

test('/qgpt/stream with no model loaded says so in the reply and keeps the question', async () => {
  const stream = await qgpt();
  try {
    const frames = await stream.ask({ relevance: { query: 'What does this regex match?' } });
    assert.deepEqual(frames.map((f) => f['status']), ['IN-PROGRESS', 'COMPLETED']);
    assert.equal(shown(frames), NO_MODEL_NOTICE);
    assert.match(shown(frames), /No local model is loaded/);
    const messages = (await request(t.url, 'GET', `/conversation/${frames[1]!['conversation']}/messages`)).json.iterable;
    assert.deepEqual(messages.map((m: Record<string, any>) => m['role']), ['USER']);
    const bad = await stream.ask({ relevance: { query: 42 } });
    assert.equal(bad[0]!['status'], 'FAILED');
    assert.equal(bad[0]!['statusCode'], 400);
  } finally {
    stream.close();
  }
});

test('search --mode fts and --mode ncs: GET /search/full_text and /search/neural_code answer from the store', async () => {
  const create = (text: string, name: string) => new AssetsApi(t.sdk).assetsCreateNewAsset({ seed: codeSeed(text, name) as unknown as Seed });
  const parser = await create('export function parseJsonConfig(path: string) { return JSON.parse(readFileSync(path, "utf8")); }', 'Config loader');
  const retry = await create('async function retryWithBackoff(task, attempts) { for (let i = 0; i < attempts; i++) { try { return await task(); } catch {} } }', 'Retry');
  const search = new SearchApi(t.sdk);

  const fts = await search.fullTextSearchRaw({ query: 'readFileSync' });
  assertWire('SearchedAssets', await fts.raw.clone().json());
  assert.deepEqual((await fts.value()).iterable.map((hit) => hit.identifier), [parser.id]);
  // Full text has no typo tolerance: the fuzzy search finds a misspelling, full text does not.
  assert.deepEqual((await search.fullTextSearch({ query: 'readFileSynk' })).iterable, []);

  // Code search matches identifiers by their words: "retry backoff" finds retryWithBackoff.
  const ncs = await search.neuralCodeSearchRaw({ query: 'retry with backoff' });
  assertWire('SearchedAssets', await ncs.raw.clone().json());
  const found = (await ncs.value()).iterable;
  assert.equal(found[0]?.identifier, retry.id);
  assert.equal(found[0]?.asset?.original.reference?.fragment?.string?.raw?.includes('retryWithBackoff'), true);
  assert.equal(found.some((hit) => hit.identifier === parser.id), false);

  for (const path of ['/search/full_text', '/search/neural_code', '/search/full_text?query=%20']) {
    const reply = await request(t.url, 'GET', path);
    assert.equal(reply.status, 400, path);
    assert.equal(reply.json.error.code, 'invalid_input');
  }
});
