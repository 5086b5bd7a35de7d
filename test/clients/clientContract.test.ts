/**
 * What the two published Pieces clients need of a host, checked on every machine: the Pieces CLI
 * (pieces-app/cli-agent) and the Pieces Python SDK (pieces-app/pieces-os-client-sdk-for-python), at
 * the commits in pinned.ts. Their own runs (pythonSdk.test.ts, piecesCli.test.ts) need a local copy
 * of their source and skip without one; this test needs neither Python nor their code.
 *
 * It replays, against a real host on port 0, the HTTP requests and WebSocket streams those clients
 * make at start-up and for the commands the real-client tests run, in their order, and checks every
 * field each client reads in each reply with the type it needs. The list was derived by reading the
 * clients' source at the pinned commits and by logging the requests a host received while the real
 * clients ran; it is our description of their contract, written as data in contract.ts (the client
 * function making each call is named in its comment). Two kinds of field are listed:
 *   - fields the client's code reads (a snippet's text at original.reference.fragment.string.raw …);
 *   - fields the SDK's generated models require to parse a reply at all (pydantic raises on a
 *     missing one and the whole call fails), e.g. Asset.mechanism or SearchedAsset.score.
 * When a pinned commit moves, re-derive what changed and extend the tables (see pinned.ts).
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { WebSocket } from 'ws';
import { openFrames, type Frames } from '../support/frames.ts';
import { startTestServer, type TestServer } from '../support/helpers.ts';
import { NO_MODEL_NOTICE } from '../../src/core/conversations/copilot.ts';
import type { TextGenerator } from '../../src/core/models/textGenerator.ts';
import { assertReads, CLI_DEFAULT_MODEL_UNIQUE, CONTRACT, NEOVIM_DEFAULT_MODEL, qgptAnswer, qgptFrame, SDK_DEFAULT_MODEL, STREAMS, SUBLIME_DEFAULT_UNIQUES, timestamp, type Json, type Reads } from './contract.ts';

let t: TestServer;
let base: string;
before(async () => {
  t = await startTestServer();
  base = t.url;
});
after(() => t?.close());

type CallName = keyof typeof CONTRACT;
/** The tracked application's id from /connect, sent as the `application` header (as the SDK does). */
let appId: string | undefined;

/**
 * Makes one contracted call as the clients do (JSON body, the `application` header once connected)
 * and checks what they read of the reply. Returns the parsed body (or text).
 */
async function call(name: CallName, vars: Record<string, string> = {}, body?: unknown): Promise<any> {
  const spec: { method: string; path: string; text?: boolean; reads?: Reads } = CONTRACT[name];
  const path = spec.path.replace(/\{(\w+)\}/g, (_, key: string) => encodeURIComponent(vars[key] ?? assert.fail(`${name}: no ${key}`)));
  const headers: Record<string, string> = { ...(appId ? { application: appId } : {}) };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const reply = await fetch(base + path, { method: spec.method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  const text = await reply.text();
  assert.ok(reply.status >= 200 && reply.status < 300, `${name} (${spec.method} ${path}) answers 2xx, got ${reply.status}: ${text.slice(0, 300)}`);
  if (spec.method === 'HEAD') return undefined;
  if (spec.text) {
    assert.ok(text.length > 0, `${name} answers a non-empty string`);
    return text.replace(/^"|"$/g, '');
  }
  const json = text ? JSON.parse(text) : undefined;
  assertReads(json, spec.reads ?? {}, name);
  return json;
}

/** Opens a contracted JSON stream and checks its first frame (the SDK waits for it before it is "initialised"). */
async function stream(name: keyof typeof STREAMS): Promise<Frames<Json>> {
  const spec: { path: string; reads?: Reads } = STREAMS[name];
  const frames = await openFrames<Json>(base + spec.path);
  assertReads(await frames.until(() => true), spec.reads ?? {}, `${name} stream`, true);
  return frames;
}

/** A stream whose frames the client takes as plain text (HealthWS): its first frame, then closed. */
async function textStream(name: keyof typeof STREAMS): Promise<void> {
  const socket = new WebSocket(base.replace(/^http/, 'ws') + STREAMS[name].path);
  try {
    const first = await new Promise<string>((resolve, reject) => socket.once('message', (data) => resolve(String(data))).once('error', reject));
    assert.ok(first.length > 0, `${name} stream sends a frame`);
  } finally {
    socket.close();
  }
}

/** Waits for a frame of a contracted stream naming `id` (deleted or not, as asked), checking what the client reads of it. */
async function named(frames: Frames<Json>, name: 'assets' | 'conversations', id: string, from = 0, deleted = false): Promise<void> {
  const key = name === 'assets' ? 'asset' : 'conversation';
  const frame = await frames.until((f) => f['iterable'].some((item: Json) => item[key]?.id === id && Boolean(item['deleted']) === deleted), from);
  assertReads(frame, STREAMS[name].reads, `${name} stream`);
}

/** A /qgpt/stream question as Copilot.stream_question (SDK) and AskStream (CLI) send it; frames until the last. */
async function ask(socket: WebSocket, query: string, options: { model?: string; conversation?: string } = {}): Promise<Json[]> {
  const frames: Json[] = [];
  const done = new Promise<Json[]>((resolve) => {
    const onMessage = (data: unknown) => {
      const frame = JSON.parse(String(data)) as Json;
      frames.push(frame);
      if (frame['status'] !== 'IN-PROGRESS') {
        socket.off('message', onMessage);
        resolve(frames);
      }
    };
    socket.on('message', onMessage);
  });
  socket.send(
    JSON.stringify({
      ...(options.conversation ? { conversation: options.conversation } : {}),
      relevance: { application: appId, query, ...(options.model ? { model: options.model } : {}), options: { question: true } },
    }),
  );
  return done;
}

function withModel(answer: string): () => void {
  const model: TextGenerator = { generate: async () => answer };
  const original = t.core.models.textGenerator;
  t.core.models.textGenerator = () => model;
  return () => (t.core.models.textGenerator = original);
}

// The tests share one host and run in order, as one client session would.
let sdkModelId: string;
let assetId: string;
let conversationId: string;

test('start-up (both clients): discovery, health, version in the CLI range, connect, user, default models, applications', async () => {
  await call('discover');
  assert.equal(await call('health'), 'ok');
  const version = await call('version');
  const [major] = String(version).split('.').map(Number);
  assert.ok(/^\d+\.\d+\.\d+$/.test(version) && major === 12, `version ${version} is inside the CLI's 12.0.0 <= v < 13.0.0`);
  const context = await call('connect', {}, { application: { name: 'OPEN_SOURCE', platform: 'LINUX', version: '4.2.0' } });
  appId = context.application.id;
  await call('user');
  const models = (await call('models')).iterable as Json[];
  const usable = models.filter((m) => m['cloud'] || m['downloaded']);
  const sdkDefault = usable.find((m) => m['name'] === SDK_DEFAULT_MODEL);
  assert.ok(sdkDefault, `the SDK's default "${SDK_DEFAULT_MODEL}" is listed as cloud or downloaded`);
  sdkModelId = sdkDefault['id'];
  const cliDefault = models.find((m) => m['unique'] === CLI_DEFAULT_MODEL_UNIQUE);
  assert.ok(cliDefault && usable.includes(cliDefault), `the CLI's default (unique ${CLI_DEFAULT_MODEL_UNIQUE}) is listed and usable`);
  await call('applications');
});

test('start-up streams (SDK: all seven; CLI run loop: assets and conversations) send what the clients parse', async () => {
  const opened: Array<Frames<Json>> = [];
  try {
    for (const name of Object.keys(STREAMS) as Array<keyof typeof STREAMS>) {
      if ('text' in STREAMS[name]) await textStream(name);
      else opened.push(await stream(name));
    }
  } finally {
    for (const frames of opened) frames.close();
  }
  await call('visionStatus');
});

test('a snippet: create, list, open (text and language), rename, edit, search, delete — with the assets stream following', async () => {
  const assets = await stream('assets');
  try {
    // BasicAsset._get_seed: the tracked application and a fragment with its extension.
    const app = (await call('connect', {}, { application: { name: 'OPEN_SOURCE', platform: 'LINUX', version: '4.2.0' } })).application;
    const seed = { type: 'SEEDED_ASSET', asset: { application: app, format: { fragment: { string: { raw: "print('Hello, World!')" }, metadata: { ext: 'py' } } } } };
    assetId = (await call('create', {}, seed)).id;
    await named(assets, 'assets', assetId);

    const ids = (await call('assetIds')).iterable.map((item: Json) => item['id']);
    assert.ok(ids.includes(assetId), 'the list names the new snippet');
    const opened = await call('asset', { asset: assetId });
    assert.equal(opened.original.reference.fragment.string.raw, "print('Hello, World!')");
    assert.equal(opened.original.reference.classification.specific, 'py');

    // Rename: the whole snapshot sent back with its name changed (the CLI's `edit -n`, the SDK's name setter).
    const from = assets.frames.length;
    await call('rename', {}, { ...opened, name: 'Greeting' });
    await named(assets, 'assets', assetId, from);
    assert.equal((await call('asset', { asset: assetId })).name, 'Greeting');

    // Edit content: the original format fetched, its raw replaced, sent back.
    const original = await call('format', { format: opened.original.id });
    await call('editFormat', {}, { ...original, fragment: { ...original.fragment, string: { raw: "print('Hello, Satchel!')" } } });
    const edited = await call('asset', { asset: assetId });
    assert.equal(edited.original.reference.fragment.string.raw, "print('Hello, Satchel!')");
    assert.equal(edited.preview.base.reference.fragment.string.raw, "print('Hello, Satchel!')");

    for (const mode of ['fts', 'ncs', 'fuzzy'] as const) {
      const found = await call(mode, { query: 'Satchel' });
      assert.deepEqual(found.iterable.map((s: Json) => s['identifier']), [assetId], `search ${mode}`);
    }

    const beforeDelete = assets.frames.length;
    await call('delete', { asset: assetId });
    // AssetSnapshot.streamed_identifiers_callback drops an id whose item says `deleted`.
    await named(assets, 'assets', assetId, beforeDelete, true);
    assert.ok(!(await fetch(`${base}/assets/identifiers`).then((r) => r.json()) as Json)['iterable'].some((i: Json) => i['id'] === assetId));
  } finally {
    assets.close();
  }
});

test('/qgpt/stream: ask with the SDK default model, follow up without a model, then the chat as both clients read it', async () => {
  const conversations = await stream('conversations');
  const socket = new WebSocket(base.replace(/^http/, 'ws') + '/qgpt/stream');
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  const restore = withModel('Objects bundle state with behaviour.');
  try {
    const first = await ask(socket, 'What is Object-Oriented Programming?', { model: sdkModelId });
    for (const frame of first) assertReads(frame, qgptFrame, 'qgpt frame');
    assert.equal(first.at(-1)!['status'], 'COMPLETED');
    const answered = first.filter((frame) => frame['question']);
    assert.ok(answered.length > 0, 'the answer arrives in question.answers');
    for (const frame of answered) assertReads(frame, qgptAnswer, 'qgpt answer frame');
    assert.equal(answered.flatMap((f) => f['question'].answers.iterable.map((a: Json) => a['text'])).join(''), 'Objects bundle state with behaviour.');
    conversationId = first.at(-1)!['conversation'];

    // The CLI names no model when none is configured; the same conversation continues.
    const second = await ask(socket, 'And encapsulation?', { conversation: conversationId });
    assert.equal(second.at(-1)!['status'], 'COMPLETED');
    assert.equal(second.at(-1)!['conversation'], conversationId);
    await named(conversations, 'conversations', conversationId);
  } finally {
    restore();
    socket.close();
    conversations.close();
  }

  const ids = (await call('conversationIds')).iterable.map((item: Json) => item['id']);
  assert.ok(ids.includes(conversationId));
  const chat = await call('conversation', { conversation: conversationId });
  assert.equal(chat.name, 'What is Object-Oriented Programming?');
  const live = Object.entries(chat.messages.indices as Record<string, number>).filter(([, index]) => index !== -1);
  assert.equal(live.length, 4, 'two questions and two answers');
  const messages = [];
  for (const [id] of live.sort(([, a], [, b]) => a - b)) messages.push(await call('message', { message: id }));
  assert.deepEqual(
    messages.map((m) => m.role),
    ['USER', 'ASSISTANT', 'USER', 'ASSISTANT'],
  );
  assert.equal(messages[0].fragment.string.raw, 'What is Object-Oriented Programming?');
});

test('/qgpt/stream with no model loaded: a completed answer saying so, which the clients show as text', async () => {
  const socket = new WebSocket(base.replace(/^http/, 'ws') + '/qgpt/stream');
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  try {
    const frames = await ask(socket, 'What does this regex match?');
    assert.equal(frames.at(-1)!['status'], 'COMPLETED');
    const answered = frames.filter((frame) => frame['question']);
    for (const frame of answered) assertReads(frame, qgptAnswer, 'qgpt answer frame');
    assert.match(answered.flatMap((f) => f['question'].answers.iterable.map((a: Json) => a['text'])).join(''), new RegExp(NO_MODEL_NOTICE.slice(0, 30).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  } finally {
    socket.close();
  }
});

test('Sublime and Neovim start-up: their default models are listed as usable chat models; the classifier and encoder are not offered as chat models', async () => {
  const models = (await call('editorModels')).iterable as Json[];
  const usable = models.filter((m) => m['cloud'] || m['downloaded']);
  for (const unique of SUBLIME_DEFAULT_UNIQUES) assert.ok(usable.some((m) => m['unique'] === unique), `Sublime's ${unique} is listed and usable`);
  assert.ok(usable.some((m) => m['name'] === NEOVIM_DEFAULT_MODEL), `Neovim's "${NEOVIM_DEFAULT_MODEL}" is listed and usable`);
  // A picker that keeps cloud or downloaded models (Neovim's, the SDK's get_models), or models with any
  // capability, skips what cannot chat.
  const cannotChat = models.filter((m) => m['usage'] === 'CODE_CLASSIFICATION' || m['usage'] === 'TEXT_EMBEDDING');
  assert.ok(cannotChat.length > 0, 'the classifier and the encoder are listed');
  for (const model of cannotChat) {
    assert.equal(model['cloud'], false, model['name']);
    assert.equal(model['downloaded'], false, model['name']);
    assert.ok(model['capabilities'] && !Object.values(model['capabilities'] as Json).includes(true), `${model['name']} states no capability`);
  }
});

test('the example app: connect with its user, a copilot question with a seed, the activities list', async () => {
  const context = await call('connectWithUser', {}, { application: { name: 'OPEN_SOURCE', platform: 'LINUX', version: '1.0.0' } });
  const seeded = await call('create', {}, { type: 'SEEDED_ASSET', asset: { application: context.application, format: { fragment: { string: { raw: 'SELECT 1;' } } } } });
  const restore = withModel('It selects one.');
  try {
    const seed = { type: 'SEEDED_ASSET', asset: { application: context.application, format: { fragment: { string: { raw: 'SELECT 1;' } } } } };
    const output = await call('question', {}, { query: 'What does this do?', relevant: { iterable: [{ seed }] } });
    assert.equal(output.answers.iterable[0].text, 'It selects one.');
  } finally {
    restore();
  }
  const activities = (await call('activities')).iterable as Json[];
  assert.ok(activities.some((a) => a['asset'].id === seeded.id && 'asset_created' in a['event'].asset.identifier_description_pair));
});

test('copilot-sdk askQuestion: POST /qgpt/question with its model and application, answered by the loaded model', async () => {
  const models = (await call('models')).iterable as Json[];
  const model = models.find((m) => m['name'] === SDK_DEFAULT_MODEL)!;
  const restore = withModel('Use a Map.');
  try {
    const output = await call('question', {}, { query: 'How do I count words?', relevant: { iterable: [] }, model: model['id'], application: appId });
    assert.deepEqual(output.answers.iterable.map((a: Json) => a['text']), ['Use a Map.']);
  } finally {
    restore();
  }
});

test('the vanilla copilot example: relevance, then a /qgpt/stream question naming the GPT-4 model by foundation', async () => {
  const found = await call('relevance', {}, { query: 'SELECT', application: appId });
  assert.ok(found.relevant.iterable.length > 0, 'the snippet saved above is relevant');
  const gpt4 = ((await call('models')).iterable as Json[]).find((m) => m['foundation'] === 'GPT_4')!;
  const socket = new WebSocket(base.replace(/^http/, 'ws') + '/qgpt/stream');
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  const prompts: string[] = [];
  const model: TextGenerator = { generate: async (prompt) => (prompts.push(prompt), 'One row.') };
  const original = t.core.models.textGenerator;
  t.core.models.textGenerator = () => model;
  const restore = () => (t.core.models.textGenerator = original);
  try {
    const frames: Json[] = [];
    const done = new Promise<void>((resolve) => {
      socket.on('message', (data) => {
        const frame = JSON.parse(String(data)) as Json;
        frames.push(frame);
        if (frame['status'] !== 'IN-PROGRESS') resolve();
      });
    });
    socket.send(JSON.stringify({ question: { query: 'What does SELECT 1 return?', relevant: found.relevant, model: gpt4['id'] } }));
    await done;
    assert.equal(frames.at(-1)!['status'], 'COMPLETED');
    const answered = frames.filter((f) => f['question']);
    for (const frame of answered) assertReads(frame, qgptAnswer, 'qgpt answer frame');
    assert.equal(answered.map((f) => f['question'].answers.iterable[0].text).join(''), 'One row.');
    assert.match(prompts[0]!, /SELECT 1;/, 'the relevant snippet is the context of the question');
  } finally {
    restore();
    socket.close();
  }
});

test('the contract check itself fails on a missing or mistyped field', () => {
  assert.throws(() => assertReads({ original: { reference: {} } }, { 'original.reference.fragment.string.raw': 'string' }, 'x'), /raw is a string/);
  assert.throws(() => assertReads({ iterable: [] }, { 'iterable[].id': 'string' }, 'x'), /non-empty array/);
  assert.throws(() => assertReads({ created: { value: 'soon' } }, timestamp('created'), 'x'), /date-time/);
  assert.throws(() => assertReads({ status: 'DONE' }, qgptFrame, 'x'), /one of/);
  assert.doesNotThrow(() => assertReads({ messages: { indices: { a: 0 } } }, { 'messages.indices{}': 'number' }, 'x'));
});
