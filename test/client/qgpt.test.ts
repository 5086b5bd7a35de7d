import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withClient } from '../support/helpers.ts';
import { askCopilot } from '../../src/client/qgpt.ts';
import { ClientError } from '../../src/client/errors.ts';
import { NO_MODEL_NOTICE } from '../../src/core/conversations/copilot.ts';

test('askCopilot: one question over /qgpt/stream, kept as a conversation; no model gives the plain notice', async () => {
  await withClient(async (client, server) => {
    const { application } = await client.connector.connect({ name: 'VS_CODE', version: '1.0.0', platform: 'LINUX' });
    const asset = await client.assets.createFromText({ text: 'def chunks(xs, n):\n    return [xs[i:i+n] for i in range(0, len(xs), n)]\n', application, language: 'py' });
    const answer = await askCopilot(server.url, { query: 'What does chunks do?', assets: [asset.id] });
    assert.equal(answer.text, NO_MODEL_NOTICE);
    const messages = await client.conversations.messages(answer.conversation);
    assert.deepEqual(messages.iterable.map((m) => m.fragment?.string?.raw), ['What does chunks do?'], 'the question was stored');
  });
});

test('askCopilot: an empty question is refused with the host\'s reason; a cancelled one rejects at once', async () => {
  await withClient(async (_client, server) => {
    await assert.rejects(askCopilot(server.url, { query: '  ' }), (e: unknown) => e instanceof ClientError && e.status === 400 && /empty/.test(e.message));
    const abort = new AbortController();
    abort.abort();
    await assert.rejects(askCopilot(server.url, { query: 'q', signal: abort.signal }), (e: unknown) => e instanceof ClientError && e.code === 'aborted');
  });
});

test('askCopilot: no host gives an unreachable error', async () => {
  await assert.rejects(askCopilot('http://127.0.0.1:9', { query: 'q', timeoutMs: 5_000 }), (e: unknown) => e instanceof ClientError && e.unreachable);
});
