/**
 * What the other published Pieces clients need (Pieces for Sublime and for Neovim, the copilot SDK,
 * the example app and the vanilla copilot example; issue 33), through the published TypeScript
 * client's API classes, each reply strictly checked against its models: the models they default to,
 * `user` in the `/connect` reply, and chat models only where a chat model is asked for.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as P from '@pieces.app/pieces-os-client';
import { WebSocket } from 'ws';
import { assertWire } from './assetsWireCheck.ts';
import { startTestServer, request, type TestServer } from '../support/helpers.ts';
import { CLASSIFIER_ID, ENCODER_ID } from '../../src/core/models/catalog.ts';
import { NO_MODEL_NOTICE } from '../../src/core/conversations/copilot.ts';
import type { TextGenerator } from '../../src/core/models/textGenerator.ts';
import { codeSeed } from '../support/assetFixtures.ts';

let t: TestServer;
before(async () => {
  t = await startTestServer();
});
after(() => t.close());

test('/connect carries the local user GET /user answers (the example app shows "Please Login" without it)', async () => {
  const response = await new P.ConnectorApi(t.sdk).connectRaw({
    seededConnectorConnection: { application: { name: P.ApplicationNameEnum.OpenSource, version: '1.0.0', platform: P.PlatformEnum.Linux } },
  });
  const json = await response.raw.clone().json();
  assertWire('Context', json);
  const context = await response.value();
  const user = await new P.UserApi(t.sdk).userSnapshot();
  assert.ok(context.user, 'the reply has a user');
  assert.equal(context.user.id, user.user?.id);
  assert.equal(context.user.name, user.user?.name);
});

test("the models the clients default to are listed as stand-ins, answered by the loaded model and saying so", async () => {
  const models = (await new P.ModelsApi(t.sdk).modelsSnapshot()).iterable;
  const byName = (name: string) => models.find((model) => model.name === name);
  const byUnique = (unique: string) => models.find((model) => model.unique === unique);
  const wanted = [
    byName('GPT-4o Chat Model'), // Pieces for Neovim
    byUnique('o4-mini-2025-04-16'), // Pieces for Sublime's default…
    byUnique('gpt-4o'), // …and its fallback
    byName('GPT-3.5-turbo Chat Model'), // the Python SDK, the copilot SDK
  ];
  for (const model of wanted) {
    assert.ok(model, 'listed');
    // The clients' pickers keep models that are cloud or downloaded.
    assert.equal(model.cloud, true);
    assert.equal(model.usage, P.ModelUsageEnum.CodeConversation);
    assert.match(model.description ?? '', /Stand-in .* answered by the local text model you have loaded/);
  }
});

test('the classifier and the sentence encoder never pass for chat models: no capability, neither cloud nor downloaded, and a question naming one is refused 400', async () => {
  const models = (await new P.ModelsApi(t.sdk).modelsSnapshot()).iterable;
  for (const id of [CLASSIFIER_ID, ENCODER_ID]) {
    const model = models.find((m) => m.id === id);
    if (!model) continue; // the encoder is known only where the build carries it
    assert.notEqual(model.usage, P.ModelUsageEnum.CodeConversation);
    assert.equal(model.cloud, false);
    // The SDK's get_models keeps every model that is cloud or downloaded, whatever it can do.
    assert.equal(model.downloaded, false, `${model.name} is not offered as downloaded`);
    assert.ok(model.capabilities, `${model.name} states its capabilities`);
    assert.ok(Object.values(model.capabilities).every((value) => value !== true), `${model.name}: no capability a chat picker looks for`);
    assert.equal(model.capabilities.codebases, false);
    assertWire('Model', await request(t.url, 'GET', `/model/${id}`).then((r) => r.json));
  }
  const chatModels = models.filter((m) => m.usage === P.ModelUsageEnum.CodeConversation);
  assert.ok(!chatModels.some((m) => m.id === CLASSIFIER_ID || m.id === ENCODER_ID));

  const before = (await request(t.url, 'GET', '/conversations/identifiers')).json.iterable.length;
  const refused = await request(t.url, 'POST', '/qgpt/question', { body: { query: 'hello?', relevant: { iterable: [] }, model: CLASSIFIER_ID } });
  assert.equal(refused.status, 400);
  assert.match(refused.json.error.message, /Language classifier.*cannot answer questions/);
  assert.equal((await request(t.url, 'GET', '/conversations/identifiers')).json.iterable.length, before, 'nothing was stored');
});

/** Answers every question with `answer`, recording the prompts; restore with the returned function. */
function withModel(answer: string, prompts: string[] = []): () => void {
  const model: TextGenerator = { generate: async (prompt) => (prompts.push(prompt), answer) };
  const original = t.core.models.textGenerator;
  t.core.models.textGenerator = () => model;
  return () => (t.core.models.textGenerator = original);
}

test('POST /qgpt/question (QGPTApi.question): the answer of the loaded model, question and answer stored as the stream stores them', async () => {
  const qgpt = new P.QGPTApi(t.sdk);
  const asset = (await request(t.url, 'POST', '/assets/create', { body: codeSeed('def area(r):\n    return 3.14159 * r * r\n') })).json;
  const prompts: string[] = [];
  const restore = withModel('It computes the area of a circle.', prompts);
  try {
    const standIn = (await new P.ModelsApi(t.sdk).modelsSnapshot()).iterable.find((m) => m.name === 'GPT-4o Chat Model')!;
    const response = await qgpt.questionRaw({ qGPTQuestionInput: { query: 'What does area do?', relevant: { iterable: [{ asset: { id: asset.id } }] }, model: standIn.id } });
    assertWire('QGPTQuestionOutput', await response.raw.clone().json());
    const output = await response.value();
    assert.deepEqual(output.answers.iterable.map((a) => [a.text, a.score]), [['It computes the area of a circle.', 1]]);
    assert.match(prompts[0]!, /3\.14159 \* r \* r/, 'the relevant snippet is in the prompt');
  } finally {
    restore();
  }
  const conversations = (await request(t.url, 'GET', '/conversations')).json.iterable as Array<{ id: string; name: string }>;
  const chat = conversations.find((c) => c.name === 'What does area do?');
  assert.ok(chat, 'the question made a conversation named after it');

  // Continued: the same conversation, the earlier messages in the prompt.
  const prompts2: string[] = [];
  const again = withModel('Pass it a radius.', prompts2);
  try {
    // Through raw JSON: `conversation` is Satchel's (the client's QGPTQuestionInputToJSON drops keys it does not know).
    const reply = await request(t.url, 'POST', '/qgpt/question', { body: { query: 'How do I call it?', relevant: { iterable: [] }, conversation: chat.id } });
    assertWire('QGPTQuestionOutput', reply.json);
    assert.equal(reply.json.answers.iterable[0].text, 'Pass it a radius.');
    assert.match(prompts2[0]!, /It computes the area of a circle\./);
  } finally {
    again();
  }
  const messages = (await request(t.url, 'GET', `/conversation/${chat.id}/messages?transferables=true`)).json;
  const texts = Object.values(messages.iterable ?? []).map((m: any) => `${m.role}: ${m.fragment?.string?.raw}`);
  assert.deepEqual(texts, ['USER: What does area do?', 'ASSISTANT: It computes the area of a circle.', 'USER: How do I call it?', 'ASSISTANT: Pass it a radius.']);
});

test("POST /qgpt/question with the snippet's text as a seed (the example app's askQuestion): the text is the context", async () => {
  const prompts: string[] = [];
  const restore = withModel('A greeting.', prompts);
  try {
    const application = (await new P.ConnectorApi(t.sdk).connect({ seededConnectorConnection: { application: { name: P.ApplicationNameEnum.OpenSource, version: '1.0.0', platform: P.PlatformEnum.Linux } } })).application;
    const seed = { type: P.SeedTypeEnum.SeededAsset, asset: { application, format: { fragment: { string: { raw: 'echo "hello from a seed"' } } } } };
    const output = await new P.QGPTApi(t.sdk).question({ qGPTQuestionInput: { query: 'What is this?', relevant: { iterable: [{ seed }] } } });
    assert.equal(output.answers.iterable[0]!.text, 'A greeting.');
    assert.match(prompts[0]!, /echo "hello from a seed"/);
  } finally {
    restore();
  }
});

test('POST /qgpt/question with no model loaded answers the notice; an empty query is a 400', async () => {
  const output = await new P.QGPTApi(t.sdk).question({ qGPTQuestionInput: { query: 'Anyone there?', relevant: { iterable: [] } } });
  assert.equal(output.answers.iterable[0]!.text, NO_MODEL_NOTICE);
  const empty = await request(t.url, 'POST', '/qgpt/question', { body: { query: '  ', relevant: { iterable: [] } } });
  assert.equal(empty.status, 400);
});

test('POST /qgpt/relevance (QGPTApi.relevance): the snippets Satchel\'s search finds for the query, as RelevantQGPTSeeds; with options.question, answered with them', async () => {
  const qgpt = new P.QGPTApi(t.sdk);
  const wanted = (await request(t.url, 'POST', '/assets/create', { body: codeSeed('function debounceKeystrokes(fn, ms) {\n  let timer;\n  return (...args) => { clearTimeout(timer); timer = setTimeout(() => fn(...args), ms); };\n}\n') })).json;
  await request(t.url, 'POST', '/assets/create', { body: codeSeed('SELECT name FROM users WHERE active = 1;\n') });

  const response = await qgpt.relevanceRaw({ qGPTRelevanceInput: { query: 'debounce keystrokes' } });
  assertWire('QGPTRelevanceOutput', await response.raw.clone().json());
  const output = await response.value();
  assert.deepEqual(output.relevant.iterable.map((seed) => seed.asset?.id), [wanted.id], 'only the snippet that matches');
  const [seed] = output.relevant.iterable;
  assert.equal(seed!.id, wanted.id);
  assert.match(seed!.seed?.asset?.format.fragment?.string?.raw ?? '', /setTimeout\(\(\) => fn\(\.\.\.args\), ms\)/);
  assert.equal(output.answer, undefined, 'no answer unless asked');

  const none = await qgpt.relevance({ qGPTRelevanceInput: { query: 'kubernetes helm chart' } });
  assert.deepEqual(none.relevant.iterable, []);

  const prompts: string[] = [];
  const restore = withModel('It delays fn until typing stops.', prompts);
  try {
    const answered = await qgpt.relevance({ qGPTRelevanceInput: { query: 'debounce keystrokes', options: { question: true } } });
    assert.equal(answered.answer?.answers.iterable[0]?.text, 'It delays fn until typing stops.');
    assert.match(prompts[0]!, /clearTimeout\(timer\)/, 'the relevant snippet is the context');
  } finally {
    restore();
  }
});

test('GET /activities (ActivitiesApi.activitiesSnapshot): every activity Satchel keeps, in the client\'s Activities shape', async () => {
  const activitiesApi = new P.ActivitiesApi(t.sdk);
  const seeded = (await request(t.url, 'POST', '/assets/create', { body: codeSeed('const answer = 42;\n') })).json;
  const response = await activitiesApi.activitiesSnapshotRaw({ transferables: false, pseudo: false });
  const json = (await response.raw.clone().json()) as { iterable: Array<{ id: string; event: { asset?: { asset?: { id: string }; identifier_description_pair?: object } } }> };
  assertWire('Activities', json);
  const about = (id: string) => json.iterable.filter((activity) => activity.event.asset?.asset?.id === id);
  assert.deepEqual(about(seeded.id).map((activity) => Object.keys(activity.event.asset!.identifier_description_pair!)), [['asset_created']]);
  const parsed = (await response.value()).iterable;
  // The example app lists only activities with their asset, by the asset's name.
  const mine = parsed.filter((activity) => activity.asset?.id === seeded.id);
  assert.equal(mine.length, 1);
  assert.equal(mine[0]!.asset!.name, seeded.name);
  assert.deepEqual(parsed.map((activity) => activity.id), json.iterable.map((activity) => activity.id), 'the client parses every one');
  // The same records GET /asset/{asset}/activities names.
  const ofAsset = (await request(t.url, 'GET', `/asset/${seeded.id}/activities`)).json.iterable.map((a: { id: string }) => a.id);
  assert.deepEqual(ofAsset, about(seeded.id).map((activity) => activity.id));
  assert.equal(new Set(parsed.map((a) => a.id)).size, parsed.length, 'each once');
  // A deleted asset's activities go with it.
  await request(t.url, 'POST', `/assets/${seeded.id}/delete`);
  const after = (await activitiesApi.activitiesSnapshot()).iterable;
  assert.ok(!after.some((activity) => ofAsset.includes(activity.id)));
});

test('/qgpt/stream refuses the classifier as the model of a question: FAILED, 400, the reason', async () => {
  const socket = new WebSocket(t.url.replace(/^http/, 'ws') + '/qgpt/stream');
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  try {
    const frame = new Promise<Record<string, unknown>>((resolve) => socket.once('message', (data) => resolve(JSON.parse(String(data)))));
    socket.send(JSON.stringify({ question: { query: 'Which language is this?', relevant: { iterable: [] }, model: CLASSIFIER_ID } }));
    const reply = await frame;
    assert.equal(reply['status'], 'FAILED');
    assert.equal(reply['statusCode'], 400);
    assert.match(String(reply['errorMessage']), /cannot answer questions/);
  } finally {
    socket.close();
  }
});
